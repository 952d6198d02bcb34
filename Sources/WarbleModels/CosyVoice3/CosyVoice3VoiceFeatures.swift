import WarbleAudio

/// The features CosyVoice 3's authors make from a reference clip (`cosyvoice/cli/frontend.py`):
/// - the speaker embedding's input at 16 kHz: Kaldi fbank, 80 bins, dither 0, 25/10 ms, povey window,
///   pre-emphasis 0.97, FFT 512, low 20 Hz, snip edges, DC removed, unscaled float samples, each
///   bin's mean over time subtracted: `[frames, 80]`;
/// - the speech tokenizer's input at 16 kHz: Whisper's 128-mel log-mel without padding
///   (openai-whisper's `log_mel_spectrogram(n_mels=128)`): `[samples / 160, 128]`;
/// - the prompt mel at 24 kHz: n_fft 1920, hop 480, 80 Slaney mels up to 12 kHz, reflect padding 720,
///   not centred, sqrt(|X|² + 1e-9), ln(max(x, 1e-5)): `[frames, 80]` at 50 frames a second.
public struct CosyVoice3VoiceFeatures: Sendable {
    public static let tokenizerRate = 16000
    public static let melRate = 24000
    public static let melBins = 80
    public static let whisperMels = 128

    let fbank: KaldiFbank
    let whisper = WhisperLogMel(melCount: 128)
    let promptMelSpectrogram = MelSpectrogram.matcha(
        sampleRate: 24000, fftLength: 1920, hopLength: 480, melCount: 80, minFrequency: 0, maxFrequency: 12000)

    public init() {
        var options = KaldiFbank.Options()
        options.sampleRate = Self.tokenizerRate
        options.melCount = Self.melBins
        options.subtractMean = true
        fbank = KaldiFbank(options: options)
    }

    /// The speaker embedding's input, `[frames, 80]`, from 16 kHz mono samples.
    public func speakerFbank(_ samples16k: [Float]) -> FeatureMatrix { fbank(samples16k) }

    /// The speech tokenizer's input, `[samples / 160, 128]` (transpose for `feats` [1, 128, T]).
    public func tokenizerMel(_ samples16k: [Float]) -> FeatureMatrix { whisper(samples16k, padding: 0) }

    /// The prompt mel, `[frames, 80]`, from 24 kHz mono samples.
    public func promptMel(_ samples24k: [Float]) -> FeatureMatrix { promptMelSpectrogram(samples24k) }

    /// The authors' alignment at 24 kHz output: `token_len = min(melFrames / 2, tokens)`; the mel keeps
    /// 2 · token_len frames and the tokens token_len.
    public static func alignedTokenCount(melFrames: Int, tokens: Int) -> Int { min(melFrames / 2, tokens) }
}
