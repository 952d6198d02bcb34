import Foundation
import WarbleAudio

/// The fixed inputs as files in the output folder, for the reference engines (written once, on first use).
struct BenchReportInputFiles {
    var folder: URL
    var clipPath: String { folder.appendingPathComponent("asr-clip.wav").path }

    func paragraph() throws -> String {
        try write("tts-paragraph.txt", BenchReportInputs.paragraph)
    }

    func sentences() throws -> String {
        try write("translation-sentences.txt", BenchReportInputs.sentences.joined(separator: "\n") + "\n")
    }

    /// The ASR clip as 16-bit WAV, for faster-whisper.
    func writeClip(_ clip: AudioBuffer) throws {
        try WAVEncoder().write(clip, to: URL(fileURLWithPath: clipPath))
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
