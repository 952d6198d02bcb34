import Foundation
import Testing
@testable import WarbleHistory

@Suite("History store")
struct HistoryStoreTests {
    @Test("an empty home gets the v1 schema, in WAL mode, sound")
    func migratesFromEmpty() throws {
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            #expect(try store.appliedMigrations() == ["v1"])
            #expect(try store.journalMode() == "wal")
            #expect(try store.integrityCheck() == "ok")
            #expect(try store.list().isEmpty)
            // Opening again finds the migrations applied and changes nothing.
            let again = try HistoryStore(directory: directory)
            #expect(try again.appliedMigrations() == ["v1"])
        }
    }

    @Test("a session comes back whole: fields, timings, texts, audio bytes; the same audio twice is one file")
    func roundTrip() throws {
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            let heard = fakeAudio(1), spoken = fakeAudio(2, count: 1000)
            let created = Date(timeIntervalSince1970: 1_790_000_000.5)
            let id = try store.record(NewSession(
                kind: .translation, createdAt: created, model: "whisper-base", voice: "en_US-joe-medium",
                sourceLanguage: "de", targetLanguage: "pt", duration: 3.25, timings: ["recognition": 0.5, "synthesis": 1.25],
                texts: [.transcript: "Guten Morgen", .translation: "Bom dia", .srt: "1\n00:00:00,000 --> 00:00:01,000\nBom dia\n"],
                audio: [.init(role: .input, data: heard, format: "wav"), .init(role: .output, data: spoken, format: "WAV")]))
            let session = try #require(try store.session(id: id))
            #expect(session.summary.kind == .translation)
            #expect(session.summary.createdAt == created)
            #expect(session.summary.model == "whisper-base" && session.summary.voice == "en_US-joe-medium")
            #expect(session.summary.sourceLanguage == "de" && session.summary.targetLanguage == "pt")
            #expect(session.summary.duration == 3.25)
            #expect(session.summary.preview == "Bom dia")
            #expect(session.timings == ["recognition": 0.5, "synthesis": 1.25])
            #expect(session.texts.map(\.role) == [.transcript, .translation, .srt])
            #expect(session.texts.first { $0.role == .transcript }?.text == "Guten Morgen")
            #expect(session.audio.map(\.role) == [.input, .output])
            for (stored, bytes) in zip(session.audio, [heard, spoken]) {
                #expect(stored.bytes == Int64(bytes.count))
                #expect(stored.format == "wav")
                #expect(FileManager.default.contents(atPath: stored.path) == bytes)
                #expect(stored.path.hasSuffix("/audio/\(stored.sha256.prefix(2))/\(stored.sha256).wav"))
            }
            #expect(audioFiles(in: directory).count == 2)
            // The same heard audio again: a second row, no second file.
            let second = try store.record(NewSession(kind: .transcription, texts: [.transcript: "Guten Morgen"],
                                                     audio: [.init(role: .input, data: heard, format: "wav")]))
            #expect(second > id)
            #expect(audioFiles(in: directory).count == 2)
            #expect(try store.session(id: second)?.audio.first?.sha256 == session.audio.first?.sha256)
            #expect(try store.list().map(\.id) == [second, id])
            #expect(try store.list(limit: 1).map(\.id) == [second])
            #expect(try store.session(id: 999) == nil)
        }
    }

    @Test("search finds every word, prefixes with *, tolerates quotes, forgets deleted sessions")
    func search() throws {
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            let weather = try store.record(NewSession(kind: .transcription, texts: [.transcript: "The weather is lovely today."]))
            let flight = try store.record(NewSession(kind: .translation, texts: [.source: "Your flight leaves at nine.", .translation: "Seu voo parte às nove."]))
            #expect(try store.search("weather").map(\.id) == [weather])
            #expect(try store.search("voo").map(\.id) == [flight])
            #expect(try store.search("flight nine").map(\.id) == [flight])
            #expect(try store.search("flight weather").isEmpty)
            #expect(try store.search("lov*").map(\.id) == [weather])
            #expect(try store.search("\"quoted\" AND OR (").isEmpty)
            #expect(try store.search("   ").isEmpty)
            try store.delete(id: weather)
            #expect(try store.search("weather").isEmpty)
            #expect(try store.search("flight").map(\.id) == [flight])
        }
    }

    @Test("delete removes the session's rows and the audio no other session uses; clear removes everything")
    func deleteRemovesUnreferencedAudio() throws {
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            let shared = fakeAudio(7), own = fakeAudio(8)
            let first = try store.record(NewSession(kind: .speech, texts: [.source: "one"],
                                                    audio: [.init(role: .output, data: shared, format: "wav")]))
            let second = try store.record(NewSession(kind: .transcription, texts: [.transcript: "two"],
                                                     audio: [.init(role: .input, data: shared, format: "wav"),
                                                             .init(role: .output, data: own, format: "wav")]))
            #expect(audioFiles(in: directory).count == 2)
            #expect(try store.delete(id: second))
            #expect(try store.session(id: second) == nil)
            let left = audioFiles(in: directory)
            #expect(left.count == 1)
            #expect(left.first.flatMap { FileManager.default.contents(atPath: $0.path) } == shared)
            #expect(try !store.delete(id: second))
            _ = try store.record(NewSession(kind: .clone, texts: [.source: "three"]))
            #expect(try store.clear() == 2)
            #expect(try store.list().isEmpty)
            #expect(audioFiles(in: directory).isEmpty)
            #expect(try store.session(id: first) == nil)
            #expect(try store.integrityCheck() == "ok")
        }
    }

    @Test("a home that cannot be written gives a HistoryError that says so")
    func readOnlyHome() throws {
        let directory: URL
        var cleanup: URL?
        if geteuid() == 0 {
            // Permissions do not stop root: sysfs refuses new folders to everyone.
            directory = URL(fileURLWithPath: "/sys/warble-history-test/history")
        } else {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-ro-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: home.path)
            directory = HistoryStore.directory(home: home)
            cleanup = home
        }
        defer {
            if let cleanup {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cleanup.path)
                try? FileManager.default.removeItem(at: cleanup)
            }
        }
        let error = try #require(throws: HistoryError.self) { try HistoryStore(directory: directory) }
        #expect(error.reason == .readOnly)
        #expect(error.message.contains(directory.path))
        #expect(error.message.contains("read-only or not writable"))
    }
}
