import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels

/// The fixtures `tools/cosyvoice3/make_fixtures.py` makes (synthetic graphs with the community
/// export's names, dtypes and shapes, and goldens from its Python reference of the authors' control
/// flow): Tests/Fixtures/generated/cosyvoice3.
enum CosyVoice3TestFixtures {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/cosyvoice3")
    }()

    static let repo = root.appendingPathComponent("repo")
    static let golden = root.appendingPathComponent("golden")

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "\(path) is missing: make the fixtures with `.venv/bin/python tools/cosyvoice3/make_fixtures.py "
                + "Tests/Fixtures/generated/cosyvoice3` (or run scripts/test.sh)"
        }
    }

    static func url(_ name: String) throws -> URL {
        let url = golden.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record(Missing(path: url.path))
            throw Missing(path: url.path)
        }
        return url
    }

    /// A raw little-endian float32 array.
    static func floats(_ name: String) throws -> [Float] {
        let data = try Data(contentsOf: try url(name))
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func json(_ name: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: try url(name))) as? [String: Any] else {
            throw Missing(path: name)
        }
        return object
    }

    struct Case {
        var name: String
        var text: String
        var promptText: String
        var promptTextIDs: [Int]
        var ttsTextIDs: [Int]
        var promptSpeechTokens: [Int]
        var seed: UInt64
        var minLength: Int
        var maxLength: Int
        var tokens: [Int]
        var stopID: Int?
        var filteredTokens: [Int]
    }

    static func llmCases(_ variant: String) throws -> [Case] {
        let cases = try json("llm_\(variant).json")["cases"] as? [[String: Any]] ?? []
        return cases.map { c in
            Case(name: c["name"] as? String ?? "", text: c["text"] as? String ?? "", promptText: c["prompt_text"] as? String ?? "",
                 promptTextIDs: c["prompt_text_ids"] as? [Int] ?? [], ttsTextIDs: c["tts_text_ids"] as? [Int] ?? [],
                 promptSpeechTokens: c["prompt_speech_tokens"] as? [Int] ?? [], seed: UInt64(c["seed"] as? Int ?? 0),
                 minLength: c["min_len"] as? Int ?? 0, maxLength: c["max_len"] as? Int ?? 0, tokens: c["tokens"] as? [Int] ?? [],
                 stopID: c["stop_id"] as? Int, filteredTokens: c["filtered_tokens"] as? [Int] ?? [])
        }
    }

    /// The golden voice as a library voice would hold it.
    static func voice() throws -> RenderVoice {
        let info = try json("voice.json")
        let embedding = try floats("voice_embedding.f32")
        let mel = try floats("voice_prompt_mel.f32")
        let tokens = info["prompt_tokens"] as? [Int] ?? []
        let transcript = info["transcript"] as? String ?? ""
        guard let e = StoredTensor(shape: [embedding.count], values: embedding),
              let m = StoredTensor(shape: [mel.count / 80, 80], values: mel) else { throw Missing(path: "voice tensors") }
        return RenderVoice(id: "golden", conditioning: .speakerPrompt(embedding: e, promptTokens: tokens, promptMel: m, transcript: transcript))
    }

    static func noise() throws -> CosyVoice3Noise {
        let values = try floats("flow_noise.f32")
        return CosyVoice3Noise(table: values, frames: values.count / 80)
    }

    private static let models = ["fp32", "fp16"].reduce(into: [String: Result<CosyVoice3Model, any Error>]()) { models, variant in
        models[variant] = Result {
            guard FileManager.default.fileExists(atPath: repo.path) else { throw Missing(path: repo.path) }
            return try CosyVoice3Model(directory: repo, configuration: CosyVoice3Configuration(variant: variant),
                                       sessionOptions: .init(intraOpThreads: 1))
        }
    }

    /// The fixture model of `variant` (opened once).
    static func model(_ variant: String) throws -> CosyVoice3Model {
        do { return try models[variant]!.get() } catch {
            Issue.record(error)
            throw error
        }
    }

    static func maxAbsDiff(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Float {
        zip(a, b).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
    }
}
