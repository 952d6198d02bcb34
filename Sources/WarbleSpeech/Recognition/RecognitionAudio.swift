import WarbleAudio

/// Audio as recognisers and voice activity detectors read it.
public enum RecognitionAudio {
    /// Mono samples of any buffer at `sampleRate`; a clear error when there is no audio at all.
    public static func monoSamples(_ audio: AudioBuffer, sampleRate: Int) throws -> [Float] {
        guard audio.channelCount > 0, !audio.isEmpty else {
            throw ModelError(.badInput, "the audio is empty (0 samples): nothing to recognise")
        }
        var mono = audio.channelCount == 1 ? audio : audio.mixedToMono()
        if mono.sampleRate != sampleRate {
            do {
                mono = try mono.resampled(to: sampleRate)
            } catch {
                throw ModelError(.badInput, "cannot resample \(mono.sampleRate) Hz audio to \(sampleRate / 1000) kHz: \(error)")
            }
        }
        return mono.samples
    }
}
