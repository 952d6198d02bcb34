import Foundation
import ONNXRuntime
import WarbleText

/// A Piper (VITS) voice: espeak-ng phonemes → ids → one ONNX run → audio.
///
/// Immutable and shared: one session serves every request. Rate maps to the length scale
/// (`length_scale / rate`); noise scales come from the voice's configuration unless overridden.
public final class PiperVoice: UtteranceRenderer, @unchecked Sendable {
    // All stored properties are immutable; Session is Sendable and thread-safe.
    public let modelID: String
    public let configuration: PiperConfiguration
    public let voices: [VoiceDescription]
    public let session: Session
    public var sampleRate: Int { configuration.audio.sampleRate }
    public var defaultVoice: String { voices.first?.id ?? modelID }
    public let language: String
    public let chunkCharacters: Int
    /// noise_scale and noise_w; set both to 0 for deterministic output.
    public let noiseScale: Float
    public let noiseW: Float

    private let encoder: PiperPhonemeEncoder
    private let phonemizer: any Phonemizer

    /// Loads the voice from an installed model directory (`model.onnx`, `config.json`).
    public init(
        directory: URL, manifest: ModelManifest, phonemizer: any Phonemizer, sessionOptions: SessionOptions = .init(),
        noiseScale: Float? = nil, noiseW: Float? = nil, chunkCharacters: Int = 400
    ) throws {
        let configURL = directory.appendingPathComponent(manifest.config?["config"]?.string ?? "config.json")
        let modelURL = directory.appendingPathComponent(manifest.config?["model"]?.string ?? "model.onnx")
        guard let data = FileManager.default.contents(atPath: configURL.path) else {
            throw ModelError(.badModel, "\(configURL.path) is missing; reinstall the voice with scripts/setup.sh")
        }
        do {
            configuration = try JSONDecoder().decode(PiperConfiguration.self, from: data)
        } catch {
            throw ModelError(.badModel, "\(configURL.path) is not a Piper voice configuration: \(error)")
        }
        encoder = try PiperPhonemeEncoder(map: configuration.phonemeIDMap)
        session = try Session(contentsOf: modelURL, options: sessionOptions)
        for name in ["input", "input_lengths", "scales"] where session.input(named: name) == nil {
            throw ModelError(.badModel, "\(modelURL.path) has no input '\(name)': it is not a Piper voice")
        }
        modelID = manifest.id
        language = configuration.espeak.voice
        voices = manifest.voices.map {
            VoiceDescription(id: $0.id, displayName: $0.displayName ?? $0.id, language: $0.language, model: manifest.id,
                             sampleRate: manifest.sampleRate, gender: $0.gender)
        }
        self.phonemizer = phonemizer
        self.noiseScale = noiseScale ?? configuration.inference.noiseScale
        self.noiseW = noiseW ?? configuration.inference.noiseW
        self.chunkCharacters = chunkCharacters
    }

    public func render(_ utterance: Utterance, voice: String, rate: Double, options: RunOptions) throws -> RenderedUtterance {
        let phonemes = try utterance.phonemes ?? phonemizer.phonemize(utterance.text, language: language)
        let samples = try synthesize(phonemes: phonemes, rate: rate, options: options)
        return RenderedUtterance(samples: samples, wordWeights: Self.wordWeights(phonemes))
    }

    /// Audio for a phoneme string (IPA as espeak-ng writes it, punctuation kept).
    public func synthesize(phonemes: String, rate: Double = 1, options: RunOptions? = nil) throws -> [Float] {
        let (ids, _) = encoder.encode(phonemes)
        let lengthScale = configuration.inference.lengthScale / Float(max(rate, 0.05))
        var feeds: [String: Tensor] = [
            "input": try Tensor(ids, shape: [1, ids.count]),
            "input_lengths": try Tensor([Int64(ids.count)], shape: [1]),
            "scales": try Tensor([noiseScale, lengthScale, noiseW], shape: [3]),
        ]
        if session.input(named: "sid") != nil {
            feeds["sid"] = try Tensor([Int64(0)], shape: [1])
        }
        let output = try session.run(feeds, options: options)
        return try output.tensors[0].scalars(as: Float.self)
    }

    /// Phonemes per space-separated word, for word timing.
    static func wordWeights(_ phonemes: String) -> [Int] {
        phonemes.split(separator: " ").map { word in word.unicodeScalars.filter { $0.properties.isAlphabetic }.count }
    }
}
