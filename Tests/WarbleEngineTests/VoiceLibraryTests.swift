import Foundation
import Testing
@testable import WarbleEngine

@Suite struct VoiceLibraryTests {
    func temporaryLibrary() throws -> VoiceLibrary {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warble-voices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return VoiceLibrary(directory: directory)
    }

    func profile(_ id: String, value: Float = 0.5) throws -> VoiceProfile {
        let table = try #require(StoredTensor(shape: [2, 2], values: [value, -value, 1, 0]))
        return VoiceProfile(id: id, language: "en-US", model: "kokoro-v1.0-int8", family: "kokoro",
                            created: Date(timeIntervalSince1970: 1_790_000_000.125),
                            source: .init(clipSHA256: String(repeating: "ab", count: 32), seconds: 6.5, consent: "my own voice"),
                            conditioning: .styleTable(table))
    }

    @Test func aProfileFileRoundTrips() throws {
        let original = try profile("anna")
        let data = try VoiceProfileFile.encode(original)
        #expect(try VoiceProfileFile.decode(data, source: "test") == original)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains(#""format" : "warble-voice""#) && text.contains(#""version" : 1"#))
    }

    @Test func anEditedProfileIsRefused() throws {
        var text = try #require(String(data: try VoiceProfileFile.encode(try profile("anna")), encoding: .utf8))
        text = text.replacingOccurrences(of: "0.5", with: "0.6")
        #expect { try VoiceProfileFile.decode(Data(text.utf8), source: "anna.json") } throws: { error in
            "\(error)".contains("anna.json is damaged") && "\(error)".contains("checksum")
        }
    }

    @Test func anotherVersionOrFormatIsRefused() throws {
        var text = try #require(String(data: try VoiceProfileFile.encode(try profile("anna")), encoding: .utf8))
        text = text.replacingOccurrences(of: #""version" : 1"#, with: #""version" : 2"#)
        #expect { try VoiceProfileFile.decode(Data(text.utf8), source: "v2.json") } throws: { error in
            "\(error)".contains("version 2") && "\(error)".contains("reads version 1")
        }
        #expect { try VoiceProfileFile.decode(Data("{}".utf8), source: "x.json") } throws: { error in
            "\(error)" == "x.json is not a Warble voice profile"
        }
    }

    @Test func addListRemove() throws {
        let library = try temporaryLibrary()
        #expect(library.snapshot().profiles.isEmpty)
        try library.add(try profile("bob"))
        try library.add(try profile("anna"))
        let snapshot = library.snapshot()
        #expect(snapshot.profiles.map(\.id) == ["anna", "bob"])
        #expect(snapshot.problems.isEmpty)
        #expect(library.snapshot(ifNewerThan: snapshot) == nil)
        #expect(throws: VoiceLibraryError.self) { try library.add(try profile("anna")) }
        try library.add(try profile("anna", value: 0.25), replacing: true)
        let replaced = try #require(library.snapshot(ifNewerThan: snapshot))
        #expect(replaced.profile("anna")?.conditioning == (try profile("anna", value: 0.25)).conditioning)
        try library.remove("bob")
        #expect(library.snapshot().profiles.map(\.id) == ["anna"])
        #expect { try library.remove("bob") } throws: { "\($0)".contains("no voice 'bob'") }
        #expect { try library.add(try profile("../escape")) } throws: { "\($0)".contains("not a usable voice name") }
    }

    @Test func aDamagedFileIsAProblemNotACrash() throws {
        let library = try temporaryLibrary()
        try library.add(try profile("anna"))
        let folder = library.directory.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: folder.appendingPathComponent("profile.json"))
        let moved = library.directory.appendingPathComponent("renamed")
        try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
        try VoiceProfileFile.encode(try profile("someone-else")).write(to: moved.appendingPathComponent("profile.json"))
        let snapshot = library.snapshot()
        #expect(snapshot.profiles.map(\.id) == ["anna"])
        #expect(snapshot.problems.count == 2)
        #expect(snapshot.problems.contains { $0.message.contains("holds voice 'someone-else'") })
    }

    /// Profiles whose checksum is right (a crafted file, not a damaged one) but whose fields are not: each is
    /// refused when read and when added, naming the field.
    @Test(arguments: [
        ("style values of 1e38", "style table"), ("a display name with escape sequences", "display name"),
        ("a path as its model", "model '../../etc'"), ("a date in the year 5 million", "creation date"),
        ("a language that is a path", "language"), ("a source embedding of 1e30", "speaker embedding"),
        ("a gender of 40 characters", "gender"),
    ])
    func aCraftedProfileIsRefused(what: String, named: String) throws {
        var crafted = try profile("anna")
        switch what {
        case "style values of 1e38": crafted.conditioning = .styleTable(try #require(StoredTensor(shape: [1, 2], values: [1e38, 0])))
        case "a display name with escape sequences": crafted.displayName = "\u{1B}[2J\u{1B}[31mAnna\nroot# "
        case "a path as its model": crafted.model = "../../etc"
        case "a date in the year 5 million": crafted.created = Date(timeIntervalSince1970: 1e308)
        case "a language that is a path": crafted.language = "../en"
        case "a source embedding of 1e30": crafted.source?.speakerEmbedding = [1e30, 0]
        default: crafted.gender = String(repeating: "x", count: 40)
        }
        let data = try VoiceProfileFile.encode(crafted)
        #expect { try VoiceProfileFile.decode(data, source: "crafted.json") } throws: { error in
            "\(error)".hasPrefix("crafted.json is not a usable voice profile: ") && "\(error)".contains(named)
        }
        let library = try temporaryLibrary()
        #expect { try library.add(crafted) } throws: { "\($0)".contains("cannot be saved") && "\($0)".contains(named) }
        #expect(library.snapshot().profiles.isEmpty)
    }
}
