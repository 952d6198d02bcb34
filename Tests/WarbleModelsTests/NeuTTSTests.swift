import Foundation
import Testing
import WarbleSpeech
import WarbleText
@testable import WarbleModels
import WarbleTestSupport

/// NeuTTS on tools/neutts's synthetic graphs (a reduced Llama converted by tools/neutts/convert.py:
/// 3 layers, 2 KV heads, head size 8, so a hard-coded layout fails; a byte-level BPE with the real
/// added-token layout; toy NeuCodec decoders of F·480 and (F−1)·480 samples) against its Python
/// reference of the authors' control flow: identical prompt ids, identical tokens (greedy, and
/// sampled with the same SplitMix64 draws), codec audio and the authors' streaming within 1e-5, the
/// 2,048-token context respected.
@Suite(.needs(fixtures: "neutts"), .needsRuntime) struct NeuTTSTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/neutts")
    }()
    static var golden: URL { root.appendingPathComponent("golden") }

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: run .venv/bin/python tools/neutts/make_fixtures.py Tests/Fixtures/generated/neutts" }
    }

    static func data(_ url: URL) throws -> Data {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(Missing(path: url.path))
            throw Missing(path: url.path)
        }
        return data
    }

    static func floats(_ name: String) throws -> [Float] {
        let data = try data(golden.appendingPathComponent(name))
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    struct StreamGolden: Decodable {
        let codec: String
        let frames_per_chunk: Int
        let file: String
        let pieces: [Int]
    }

    struct Case: Decodable {
        let name: String
        let text: String
        let phonemes: String
        let prompt_ids: [Int]
        let seed: UInt64?
        let generated: [Int]
        let stopped: Bool
        let codes: [Int]
        let audio: [String: String]?
        let stream: [String: StreamGolden]?
    }

    struct LM: Decodable {
        struct Voice: Decodable { let phonemes: String }
        let cases: [Case]
    }

    struct Long: Decodable {
        struct Plan: Decodable { let chunks: [String] }
        let unchunked: Case
        let chunks: [Case]
        let plan: Plan
    }

    static func lm() throws -> LM { try JSONDecoder().decode(LM.self, from: try data(golden.appendingPathComponent("lm.json"))) }
    static func long() throws -> Long { try JSONDecoder().decode(Long.self, from: try data(golden.appendingPathComponent("long.json"))) }

    static func vocabulary() throws -> NeuTTSVocabulary {
        try NeuTTSVocabulary(tokenizer: try BPETokenizer(tokenizerJSON: root.appendingPathComponent("repo/tokenizer.json")))
    }

    static func backbone() throws -> NeuTTSBackbone {
        try NeuTTSBackbone(url: root.appendingPathComponent("repo/onnx/model.onnx"), context: 2048, options: .init(intraOpThreads: 1))
    }

    static func codec(_ name: String) throws -> NeuCodecDecoder {
        try NeuCodecDecoder(url: root.appendingPathComponent("\(name)/model.onnx"), options: .init(intraOpThreads: 1))
    }

    static func voice() throws -> NeuTTSVoice {
        let codes = try NeuTTSReferenceCodes.read(try data(root.appendingPathComponent("voice/ref_codes.npy")), name: "ref_codes.npy")
        let text = String(decoding: try data(root.appendingPathComponent("voice/ref.txt")), as: UTF8.self)
        return try NeuTTSVoice(codes: codes, transcript: text)
    }

    /// The reference's phonemes of the voice's transcript (the first case of phonemes.json is it).
    static func referencePhonemes() throws -> String {
        struct Phonemes: Decodable { struct Item: Decodable { let text: String; let phonemes: String }; let cases: [Item] }
        let all = try JSONDecoder().decode(Phonemes.self, from: try data(golden.appendingPathComponent("phonemes.json")))
        let transcript = try voice().transcript
        return try #require(all.cases.first { $0.text == transcript }?.phonemes)
    }

    /// The fixture repository's generation_config.json (ids only: the fallback to transformers' defaults).
    static func generation(_ golden: Case, backbone: NeuTTSBackbone, vocabulary: NeuTTSVocabulary,
                           generation: GenerationConfigFile? = nil) throws -> NeuTTSTokenGeneration {
        let generation = try generation ?? NeuTTSSampling.read(in: root.appendingPathComponent("repo"))
        let prompt = try vocabulary.prompt(referencePhonemes: try referencePhonemes(), phonemes: golden.phonemes,
                                           referenceCodes: try voice().codes)
        #expect(prompt == golden.prompt_ids, "\(golden.name): prompt ids")
        return try NeuTTSTokenGeneration(backbone: backbone, vocabulary: vocabulary, prompt: prompt,
                                         sampler: NeuTTSSampling.sampler(generation, greedy: golden.seed == nil),
                                         seed: golden.seed ?? 0)
    }

    static func written(_ generation: inout NeuTTSTokenGeneration) throws -> [Int] {
        var tokens: [Int] = []
        while let token = try generation.next(cancel: CancellationToken()) { tokens.append(token) }
        return tokens
    }

    @Test func theVocabularyIsLookedUpByString() throws {
        let vocabulary = try Self.vocabulary()
        #expect(vocabulary.textReplace == 461 && vocabulary.speechEnd == 466 && vocabulary.speechIDs.first == 467
                && vocabulary.speechIDs.last == 66002)
        #expect(vocabulary.code(of: 467) == 0 && vocabulary.code(of: 66002) == 65_535 && vocabulary.code(of: 466) == nil
                && vocabulary.code(of: 66003) == nil && vocabulary.code(of: 10) == nil)
        let backbone = try Self.backbone()
        #expect(backbone.layers == 3)
    }

    /// Greedy and sampled: the same prompt ids, the same tokens (END and the non-speech ones included),
    /// the same codes; the cache is gone once the end token comes.
    @Test func tokensAreTheReferences() throws {
        let vocabulary = try Self.vocabulary()
        let backbone = try Self.backbone()
        for golden in try Self.lm().cases {
            var generation = try Self.generation(golden, backbone: backbone, vocabulary: vocabulary)
            let tokens = try Self.written(&generation)
            #expect(generation.written == golden.generated, "\(golden.name): tokens")
            #expect(generation.stopped == golden.stopped && !generation.holdsCache, "\(golden.name)")
            #expect(tokens.compactMap(vocabulary.code(of:)) == golden.codes, "\(golden.name): codes")
        }
    }

    /// The same weights in the standard export layout (logits for every position, as community exports
    /// give them) against Warble's converter's (the last position's only): the prompt's logits within 1e-4
    /// of each other, and the same tokens as the references.
    @Test func bothLogitsLayoutsWriteTheSameTokens() throws {
        let vocabulary = try Self.vocabulary()
        let standard = try NeuTTSBackbone(url: Self.root.appendingPathComponent("standard-layout/model.onnx"), context: 2048,
                                          options: .init(intraOpThreads: 1))
        let last = try Self.backbone()
        let golden = try #require(try Self.lm().cases.first)
        var standardCache = try standard.emptyCache(), lastCache = try last.emptyCache()
        let a = try standard.step(golden.prompt_ids, cache: &standardCache, options: nil)
        let b = try last.step(golden.prompt_ids, cache: &lastCache, options: nil)
        #expect(a.count == b.count && a.count > 60_000)
        #expect(zip(a, b).map { abs($0 - $1) }.max() ?? .infinity <= 1e-4)
        for golden in try Self.lm().cases {
            var generation = try Self.generation(golden, backbone: standard, vocabulary: vocabulary)
            _ = try Self.written(&generation)
            #expect(generation.written == golden.generated, "\(golden.name): tokens, standard layout")
        }
    }

    /// The codec's first output, F·480 or (F−1)·480 samples, within 1e-5 of the reference's.
    @Test func codecAudioIsTheReferences() throws {
        let codecs = ["codec": try Self.codec("codec"), "codec-short": try Self.codec("codec-short")]
        for golden in try Self.lm().cases {
            for (name, file) in golden.audio ?? [:] {
                let codec = try #require(codecs[name])
                let audio = try codec.decode(golden.codes, options: nil)
                let expected = try Self.floats(file)
                #expect(audio.count == expected.count && audio.count == (golden.codes.count - (name == "codec" ? 0 : 1)) * 480)
                #expect(zip(audio, expected).allSatisfy { abs($0 - $1) <= 1e-5 }, "\(golden.name) \(name)")
            }
        }
    }

    /// The authors' streaming arithmetic (chunks of 25 and 50, both codecs): the same pieces, the same samples.
    @Test func streamingIsTheReferences() throws {
        let vocabulary = try Self.vocabulary()
        let codecs = ["codec": try Self.codec("codec"), "codec-short": try Self.codec("codec-short")]
        let reference = try Self.voice().codes
        for golden in try Self.lm().cases {
            let tokens = golden.generated.filter { $0 != vocabulary.speechEnd }
            for (key, expected) in golden.stream ?? [:] {
                var stream = NeuTTSStream(codec: try #require(codecs[expected.codec]), referenceCodes: reference, chunk: expected.frames_per_chunk)
                var pieces: [[Float]] = []
                for token in tokens {
                    let piece = try stream.append(vocabulary.code(of: token), options: nil)
                    if !piece.isEmpty { pieces.append(piece) }
                }
                let last = try stream.finish(options: nil)
                if !last.isEmpty { pieces.append(last) }
                #expect(pieces.map(\.count) == expected.pieces, "\(golden.name) \(key)")
                let audio = pieces.flatMap { $0 }
                let want = try Self.floats(expected.file)
                #expect(audio.count == want.count && zip(audio, want).allSatisfy { abs($0 - $1) <= 1e-5 }, "\(golden.name) \(key)")
            }
        }
    }

    /// The unchunked long text fills the 2,048-token context and stops there (no END); each part of the
    /// plan is spoken as the reference speaks it (the plan itself: NeuTTSSpeechTests, with espeak-ng).
    @Test func theContextIsRespectedAndLongTextIsPlanned() throws {
        let vocabulary = try Self.vocabulary()
        let backbone = try Self.backbone()
        let long = try Self.long()
        var generation = try Self.generation(long.unchunked, backbone: backbone, vocabulary: vocabulary)
        _ = try Self.written(&generation)
        #expect(generation.written == long.unchunked.generated && !generation.stopped)
        #expect(long.unchunked.prompt_ids.count + generation.written.count == 2048 && !generation.holdsCache)
        for chunk in long.chunks {
            var part = try Self.generation(chunk, backbone: backbone, vocabulary: vocabulary)
            _ = try Self.written(&part)
            #expect(part.written == chunk.generated, "\(chunk.name)")
        }
        #expect(NeuTTSPlan.sentences("One.  Two!\nThree? Four...five. ") == ["One.", "Two!", "Three?", "Four...five."])
    }

    struct GenerationGolden: Decodable {
        struct Item: Decodable {
            let name: String
            let settings: [String: Double]
        }
        let cases: [Case]
        let items: [Item]
        enum CodingKeys: CodingKey { case cases }
        init(from decoder: any Decoder) throws {
            cases = try decoder.container(keyedBy: CodingKeys.self).decode([Case].self, forKey: .cases)
            items = try decoder.container(keyedBy: CodingKeys.self).decode([Item].self, forKey: .cases)
        }
    }

    /// generation_config.json's top_p, repetition_penalty and min_p, as transformers' processors apply
    /// them (tools/neutts/generation_fixtures.py, the same SplitMix64 draws): the same tokens. The fixture
    /// repository's file (ids only) gives transformers' defaults, so `tokensAreTheReferences` is the
    /// fallback's test; a setting not implemented is refused by name.
    @Test func generationConfigSettingsAreTransformers() throws {
        let vocabulary = try Self.vocabulary()
        let backbone = try Self.backbone()
        #expect(try NeuTTSSampling.read(in: Self.root.appendingPathComponent("repo")) == GenerationConfigFile())
        let golden = try JSONDecoder().decode(GenerationGolden.self, from: try Self.data(Self.golden.appendingPathComponent("generation.json")))
        #expect(golden.cases.count == 2)
        for (item, expected) in zip(golden.items, golden.cases) {
            let config = try NeuTTSSampling.read(in: Self.root.appendingPathComponent("generation/\(item.name)"))
            #expect(config.topP == item.settings["top_p"] ?? 1 && config.minP == item.settings["min_p"]
                    && config.repetitionPenalty == Float(item.settings["repetition_penalty"] ?? 1), "\(item.name)")
            var generation = try Self.generation(expected, backbone: backbone, vocabulary: vocabulary, generation: config)
            _ = try Self.written(&generation)
            #expect(generation.written == expected.generated && generation.stopped == expected.stopped, "\(item.name): tokens")
        }
        let refused = Self.root.appendingPathComponent("generation/refused")
        #expect { _ = try NeuTTSSampling.read(in: refused) } throws: { "\($0)".contains("no_repeat_ngram_size = 3") }
    }

    /// Cancelling stops at once and drops the cache; a fresh generation after it writes the same tokens.
    @Test func cancellationDropsTheCache() throws {
        let vocabulary = try Self.vocabulary()
        let backbone = try Self.backbone()
        let golden = try #require(try Self.lm().cases.first)
        var generation = try Self.generation(golden, backbone: backbone, vocabulary: vocabulary)
        let cancel = CancellationToken()
        for _ in 0..<10 { _ = try generation.next(cancel: cancel) }
        #expect(generation.holdsCache)
        cancel.cancel()
        #expect(throws: CancellationError.self) { _ = try generation.next(cancel: cancel) }
        #expect(!generation.holdsCache && generation.isFinished)
        #expect(try generation.next(cancel: CancellationToken()) == nil)
    }
}

/// Reading generation_config.json: the authors' explicit arguments override the file's, ids change
/// nothing, settings not implemented are refused by name, no file gives transformers' defaults.
@Suite struct NeuTTSGenerationConfigTests {
    func read(_ json: String) throws -> GenerationConfigFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("neutts-generation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(json.utf8).write(to: NeuTTSSampling.file(in: directory))
        return try NeuTTSSampling.read(in: directory)
    }

    @Test func settingsAreReadOverriddenOrRefused() throws {
        #expect(try NeuTTSSampling.read(in: URL(fileURLWithPath: "/nonexistent")) == GenerationConfigFile())
        let config = try read(#"{"bos_token_id": 1, "eos_token_id": 2, "temperature": 0.6, "top_k": 20, "do_sample": false, "#
            + #""top_p": 0.8, "repetition_penalty": 1.1, "min_p": null, "typical_p": 1.0, "transformers_version": "4.56.0"}"#)
        #expect(config.topP == 0.8 && config.repetitionPenalty == Float(1.1) && config.minP == nil)
        let sampler = NeuTTSSampling.sampler(config)
        #expect(sampler.temperature == 1 && sampler.topK == 50 && sampler.topP == 0.8)
        for refused in [#""no_repeat_ngram_size": 3"#, #""max_new_tokens": 100"#, #""typical_p": 0.9"#, #""num_beams": 4"#,
                        #""top_p": 1.5"#] {
            let name = String(refused.split(separator: "\"")[0])
            #expect { _ = try read("{\(refused)}") } throws: { "\($0)".contains(name) }
        }
        #expect { _ = try read("[1]") } throws: { "\($0)".contains("not a JSON object") }
    }

    /// transformers' order: the penalty before top-k (a penalised favourite drops out), ties with the
    /// k-th kept, top-p keeps at least one token.
    @Test func theSamplerAppliesTransformersOrder() {
        let logits: [Float] = [4, 3.9, 1, 1, 0]
        let penalised = TransformersSampler(temperature: 1, topK: 1, repetitionPenalty: 2)
        #expect(penalised.choose(logits, inputs: [0], uniform: { 0.5 }) == 1)
        let ties = TransformersSampler(temperature: 1, topK: 3)
        #expect(ties.choose(logits, inputs: [], uniform: { 0.999_999 }) == 3)
        let nucleus = TransformersSampler(temperature: 1, topK: 50, topP: 0.01)
        #expect(nucleus.choose(logits, inputs: [], uniform: { 0.999_999 }) == 0)
    }
}
