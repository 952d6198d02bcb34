import Foundation
import Testing
import WarbleSpeech
import WarbleText
@testable import WarbleModels
import WarbleTestSupport

/// Opus-MT (transformers' MarianMTModel converted by tools/marian/convert_opus.py) against
/// tools/marian/make_opus_fixtures.py's goldens on two tiny trained checkpoints: one published as
/// pytorch_model.bin (</s> at 0, swish), one as float16 safetensors (</s> at 37, relu, source pieces
/// missing from vocab.json). Token-identical: MarianTokenizer's ids (source and target models),
/// `generate`'s greedy and num_beams=4 ids, and `batch_decode(skip_special_tokens=True)`'s text.
@Suite(.needs(fixtures: "marian"), .needsRuntime, .serialized) struct OpusTests {
    static let root: URL = MarianTests.root.appendingPathComponent("opus")
    static let names = ["opus-mt-en-de", "opus-mt-tc-big-en-fr"]

    struct Case: Decodable {
        let text: String
        let ids: [Int]
        let targetIds: [Int]
        let greedy: [Int]
        let beam4: [Int]
        let greedyText: String
        let beam4Text: String
    }

    struct Decode: Decodable {
        let ids: [Int]
        let text: String
    }

    struct Golden: Decodable {
        let eos: Int
        let unk: Int
        let pad: Int
        let cases: [Case]
        let decodes: [Decode]
    }

    static func golden(_ name: String) throws -> Golden {
        let url = root.appendingPathComponent("goldens/\(name).json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(MarianTests.Missing(path: url.path))
            throw MarianTests.Missing(path: url.path)
        }
        return try JSONDecoder().decode(Golden.self, from: data)
    }

    static func load(_ name: String) throws -> OpusTranslator {
        let directory = root.appendingPathComponent("converted/\(name)")
        let data = try Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        let manifest = try JSONDecoder().decode(ModelManifest.self, from: data)
        let loaded = try ModelFamilies.builtIn.load(ModelFiles(manifest: manifest, directory: directory), context: FamilyContext(phonemizer: nil))
        return try #require(loaded.translator as? OpusTranslator)
    }

    @Test(arguments: names)
    func tokenizesAsMarianTokenizer(_ name: String) throws {
        let translator = try Self.load(name)
        let golden = try Self.golden(name)
        #expect(translator.tokenizer.eos == golden.eos && translator.tokenizer.unk == golden.unk && translator.tokenizer.pad == golden.pad)
        for c in golden.cases {
            #expect(translator.tokenizer.encode(c.text) == c.ids, "\(c.text)")
            #expect(translator.tokenizer.encodeTarget(c.text) == c.targetIds, "\(c.text)")
        }
        for d in golden.decodes { #expect(translator.tokenizer.decode(d.ids) == d.text, "\(d.ids)") }
    }

    @Test(arguments: names)
    func greedyAndBeamSearchMatchGenerate(_ name: String) throws {
        let translator = try Self.load(name)
        let golden = try Self.golden(name)
        for c in golden.cases {
            #expect(try translator.translationIDs(ofSentence: c.text, beamSize: 1) == c.greedy, "greedy: \(c.text)")
            #expect(try translator.translationIDs(ofSentence: c.text, beamSize: 4) == c.beam4, "beam 4: \(c.text)")
            #expect(try translator.translate(sentence: c.text, beamSize: 1) == c.greedyText, "greedy text: \(c.text)")
            #expect(try translator.translate(sentence: c.text, beamSize: 4) == c.beam4Text, "beam 4 text: \(c.text)")
        }
        // The generation config's num_beams (4) is the default.
        #expect(translator.defaultBeams == 4)
    }

    /// The int8 variant (dynamic MatMul quantisation) loads and translates; it is not held to parity.
    @Test(arguments: names)
    func int8VariantTranslates(_ name: String) throws {
        let directory = Self.root.appendingPathComponent("converted/\(name)-int8")
        let manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
        let loaded = try ModelFamilies.builtIn.load(ModelFiles(manifest: manifest, directory: directory), context: FamilyContext(phonemizer: nil))
        let translator = try #require(loaded.translator as? OpusTranslator)
        let golden = try Self.golden(name)
        var same = 0
        for c in golden.cases where try translator.translationIDs(ofSentence: c.text, beamSize: 1) == c.greedy { same += 1 }
        #expect(same >= golden.cases.count / 2, "int8 greedy equals f32's on \(same)/\(golden.cases.count)")
    }

    @Test func splitsLinesIntoSentences() async throws {
        let translator = try Self.load("opus-mt-en-de")
        let pair = LanguagePair(source: "en", target: "de")
        let joined = try await translator.translate("The cat sat on the mat. Hello world.\nThank you very much!", pair: pair, beamSize: 1)
        let expected = try [translator.translate(sentence: "The cat sat on the mat.", beamSize: 1) + " "
                            + translator.translate(sentence: "Hello world.", beamSize: 1),
                            translator.translate(sentence: "Thank you very much!", beamSize: 1)].joined(separator: "\n")
        #expect(joined == expected)
        await #expect(throws: ModelError.self) { try await translator.translate("x", pair: LanguagePair(source: "de", target: "en")) }
    }

    /// A multi-target model (manifest languages: the source, then its targets; `>>xxx<<` tokens): one
    /// pair a target, each sentence given its target's token, as `MarianTokenizer` encodes ">>jpn<< text".
    @Test func multiTargetModelsTakeTheTargetsToken() async throws {
        let source = Self.root.appendingPathComponent("converted/opus-mt-en-de")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opus-mul-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let vocabURL = directory.appendingPathComponent("vocab.json")
        var vocab = try JSONDecoder().decode([String: Int].self, from: Data(contentsOf: vocabURL))
        vocab[">>deu<<"] = 5
        vocab[">>jpn<<"] = 6
        try JSONEncoder().encode(vocab).write(to: vocabURL)
        let manifestURL = directory.appendingPathComponent("manifest.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        object["languages"] = ["en", "de", "ja"]
        var config = try #require(object["config"] as? [String: Any])
        config["languageTokens"] = ["de": ">>deu<<", "ja": ">>jpn<<"]
        object["config"] = config
        try JSONSerialization.data(withJSONObject: object).write(to: manifestURL)
        let manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: manifestURL))
        let loaded = try ModelFamilies.builtIn.load(ModelFiles(manifest: manifest, directory: directory), context: FamilyContext(phonemizer: nil))
        let translator = try #require(loaded.translator as? OpusTranslator)
        #expect(translator.languagePairs == [LanguagePair(source: "en", target: "de"), LanguagePair(source: "en", target: "ja")])
        #expect(translator.tokenizer.encode(">>jpn<< Hello world.").first == 6)
        for (target, token) in [("de", ">>deu<<"), ("ja", ">>jpn<<")] {
            let expected = translator.tokenizer.decode(try translator.translationIDs(ofSentence: "\(token) Hello world.", beamSize: 1))
            let got = try await translator.translate("Hello world.", pair: LanguagePair(source: "en", target: target), beamSize: 1)
            #expect(got == expected, "\(target)")
        }
        await #expect(throws: ModelError.self) { try await translator.translate("x", pair: LanguagePair(source: "en", target: "fr")) }
    }

    @Test func languageTokensOfMultiTargetModels() {
        let tokens: Set<String> = [">>deu<<", ">>jpn<<", ">>por<<", ">>zho_Hans<<"]
        #expect(OpusLanguageTokens.token(for: "ja", among: tokens) == ">>jpn<<")
        #expect(OpusLanguageTokens.token(for: "pt-BR", among: tokens) == ">>por<<")
        #expect(OpusLanguageTokens.token(for: "zh", among: tokens) == ">>zho_Hans<<")
        #expect(OpusLanguageTokens.token(for: "fr", among: tokens) == nil)
    }
}
