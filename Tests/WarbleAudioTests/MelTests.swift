import Foundation
import Testing
@testable import WarbleAudio
import WarbleTestSupport

@Suite struct MelTests {
    @Test(.needs(fixtures: "audio"), arguments: [
        ("mel_slaney_16k_400_80", 16000, 400, 80, 0.0, nil as Double?, MelScale.slaney, MelFilterbank.Normalization.slaney),
        ("mel_slaney_16k_400_128", 16000, 400, 128, 0, nil, .slaney, .slaney),
        ("mel_htk_22k_1024_80_nonorm", 22050, 1024, 80, 0, 8000, .htk, .none),
        ("mel_slaney_24k_1920_80", 24000, 1920, 80, 0, 12000, .slaney, .slaney),
    ])
    func filterbankMatchesLibrosa(
        name: String, rate: Int, fft: Int, mels: Int, fmin: Double, fmax: Double?, scale: MelScale,
        norm: MelFilterbank.Normalization
    ) throws {
        let expected = try Fixtures.matrix(name)
        let bank = MelFilterbank(sampleRate: rate, fftLength: fft, melCount: mels, minFrequency: fmin,
                                 maxFrequency: fmax, scale: scale, normalization: norm)
        let dense = bank.matrix()
        #expect(dense.rows == expected.rows && dense.columns == expected.columns)
        #expect(maxRelDiff(dense.values, reference: expected.values) < 1e-6)  // tolerance: 1e-6 of the peak weight
    }

    @Test func melScalesInvert() {
        for scale in [MelScale.slaney, .htk, .kaldi] {
            for hz in [0.0, 440, 999.9, 1000, 7999] {
                #expect(abs(scale.hz(fromMel: scale.mel(fromHz: hz)) - hz) < 1e-6)
            }
        }
        #expect(abs(MelScale.slaney.mel(fromHz: 1000) - 15) < 1e-12)
    }

    @Test(.needs(fixtures: "audio")) func genericMelSpectrogramMatchesLibrosa() throws {
        let x = try Fixtures.array("input_22k").values
        let expected = try Fixtures.matrix("melspec_22k_1024_256_htk")
        let mel = MelSpectrogram(
            sampleRate: 22050,
            stft: STFT(fftLength: 1024, hopLength: 256, window: .hann, center: true, paddingMode: .zeros),
            filterbank: MelFilterbank(sampleRate: 22050, fftLength: 1024, melCount: 80, maxFrequency: 8000,
                                      scale: .htk, normalization: .none),
            spectrum: .power)
        let got = mel(x)
        #expect(got.rows == expected.rows && got.columns == expected.columns)
        #expect(maxRelDiff(got.values, reference: expected.values) < 1e-5)  // tolerance: 1e-5 of the peak
    }

    @Test(.needs(fixtures: "audio"), arguments: [("whisper_80", 80), ("whisper_128", 128)])
    func whisperLogMelMatchesFasterWhisper(name: String, mels: Int) throws {
        let x = try Fixtures.array("input_16k").values
        let expected = try Fixtures.matrix(name)
        let got = WhisperLogMel(melCount: mels)(x)
        #expect(got.rows == expected.rows && got.columns == mels)
        #expect(got.rows == (x.count + 160) / 160)
        #expect(maxAbsDiff(got.values, expected.values) < 1e-4)  // tolerance: max abs 1e-4 on log-mel
    }

    @Test(.needs(fixtures: "audio"), arguments: [("matcha_24k", nil as Double?), ("matcha_24k_fmax8000", 8000)])
    func matchaMelMatchesReference(name: String, fmax: Double?) throws {
        let x = try Fixtures.array("input_24k").values
        let expected = try Fixtures.matrix(name)
        let got = MelSpectrogram.matcha(maxFrequency: fmax)(x)
        #expect(got.rows == expected.rows && got.columns == 80)
        #expect(got.rows == x.count / 480)
        #expect(maxAbsDiff(got.values, expected.values) < 1e-4)  // tolerance: max abs 1e-4 on ln-mel
    }

    @Test(.needs(fixtures: "audio"), arguments: [("kaldi_fbank_80", 80), ("kaldi_fbank_23", 23)])
    func kaldiFbankMatchesKaldiNativeFbank(name: String, mels: Int) throws {
        let x = try Fixtures.array("input_16k").values
        let expected = try Fixtures.matrix(name)
        var options = KaldiFbank.Options()
        options.melCount = mels
        let fbank = KaldiFbank(options: options)
        let got = fbank(x)
        #expect(fbank.fftLength == 512)
        #expect(got.rows == expected.rows && got.columns == mels)
        #expect(maxAbsDiff(got.values, expected.values) < 5e-4)  // tolerance: max abs 5e-4 on ln-energies (measured 1e-4)
    }

    @Test(.needs(fixtures: "audio")) func kaldiMeanSubtraction() throws {
        let x = try Fixtures.array("input_16k").values
        var options = KaldiFbank.Options()
        options.subtractMean = true
        let got = KaldiFbank(options: options)(x)
        for c in 0..<got.columns {
            let mean = (0..<got.rows).reduce(0.0) { $0 + Double(got[$1, c]) } / Double(got.rows)
            #expect(abs(mean) < 1e-4)
        }
    }

    /// kaldi-native-fbank's NeMo settings (Parakeet's front end, compared with it in ParakeetTests): frames centred on
    /// each shift over the mirrored signal, librosa's filters, ln(energy + guard).
    @Test func unsnippedLibrosaFbankWithLogGuard() {
        var options = KaldiFbank.Options()
        options.snipEdges = false
        options.librosaMel = true
        options.lowFrequency = 0
        options.highFrequency = -400
        options.melCount = 128
        options.logGuard = 0x1p-24
        let fbank = KaldiFbank(options: options)
        #expect(fbank.frameCount(sampleCount: 1000) == 6 && fbank.frameCount(sampleCount: 79) == 0 && fbank.frameCount(sampleCount: 80) == 1)
        let x: [Float] = (0..<1000).map { i in
            let t = Double(i)
            let value: Double = sin(t * 0.37) * 0.3 + cos(t * 0.011) * 0.1
            return Float(value)
        }
        // Frame f starts at 160 f − 120; sample −1 is sample 0, sample n is sample n − 1.
        let mirrored = Array(x[0..<120].reversed()) + x + Array(x[(1000 - 200)...].reversed())
        var snipped = options
        snipped.snipEdges = true
        let expected = KaldiFbank(options: snipped)(mirrored)
        let got = fbank(x)
        #expect(got.rows == 6 && got.columns == 128 && Array(expected.values.prefix(6 * 128)) == got.values)
        let silence = fbank([Float](repeating: 0, count: 480))
        #expect(silence.values.allSatisfy { $0 == logf(0x1p-24) })
        let filters = MelFilterbank(sampleRate: 16000, fftLength: 512, melCount: 128, maxFrequency: 7600)
        #expect(KaldiFbank.melBanks(options: options, fftLength: 512) == filters)
    }

    @Test func shortInputsGiveNoFramesNotCrashes() {
        #expect(KaldiFbank()([Float](repeating: 0, count: 100)).rows == 0)
        #expect(WhisperLogMel()([], padding: 0).rows == 0)
        #expect(STFT(fftLength: 400, hopLength: 160, center: false)([Float](repeating: 0, count: 10)).frames == 0)
        #expect(STFT(fftLength: 400, hopLength: 160)([0.5]).frames == 1)  // reflect of one sample repeats it
    }
}
