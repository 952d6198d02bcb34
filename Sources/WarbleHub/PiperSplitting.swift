import Foundation
import WarbleEngine
import WarbleModels

/// The conversion a pulled Piper voice gets: the split at its decoder input that the set-up makes
/// for its default voice (tools/models/split_piper.py writes `encoder.ort` and `decoder.onnx` and
/// checks both halves against the whole model). The split is what lets a voice stream inside an
/// utterance; a voice runs without it, so when it cannot be made the voice is installed whole and
/// the reason goes into the manifest's notes.
enum PiperSplitting {
    static let script = "tools/models/split_piper.py"
    /// Written into the converted directory for the manifest step, which removes it.
    static let factsFile = ".split.json"

    /// Moves the downloaded files into `output` and splits `model.onnx` there.
    static func convert(_ downloaded: URL, into output: URL, tools: ConversionTools?) async throws {
        try ConversionSteps.carryOver(downloaded, into: output)
        var failure: (any Error)?
        if let tools {
            do {
                let facts = try await tools.run(script, [output.appendingPathComponent("model.onnx").path, output.path])
                _ = try JSONDecoder().decode(PiperSplit.self, from: facts)
                try facts.write(to: output.appendingPathComponent(factsFile))
                return
            } catch {
                for name in ["encoder.onnx", "encoder.ort", "decoder.onnx"] {
                    try? FileManager.default.removeItem(at: output.appendingPathComponent(name))
                }
                failure = error
            }
        }
        try ConversionSteps.leave(ConversionSteps.note("runs whole, not split for streaming inside an utterance",
                                                       script: script, error: failure), in: output)
    }

    /// The split `convert` made (nil when none) and the notes it left; removes its working files.
    static func outcome(in directory: URL) throws -> (split: PiperSplit?, notes: [String]) {
        let facts = directory.appendingPathComponent(factsFile)
        defer { try? FileManager.default.removeItem(at: facts) }
        let split = try FileManager.default.contents(atPath: facts.path).map { try JSONDecoder().decode(PiperSplit.self, from: $0) }
        return (split, ConversionSteps.takeNotes(in: directory))
    }
}
