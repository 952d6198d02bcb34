import Foundation
import Testing
@testable import WarbleHistory
import ZIPFoundation

@Suite("History archives (export, import)")
struct HistoryArchiveTests {
    /// Two sessions with every field set, the second sharing the first's input audio.
    private func recordSessions(in store: HistoryStore) throws -> [Int64] {
        let first = try store.record(NewSession(
            kind: .translation, createdAt: Date(timeIntervalSince1970: 1_790_000_000.123456), model: "whisper-base",
            voice: "en_US-joe-medium", sourceLanguage: "de", targetLanguage: "pt", duration: 3.25,
            timings: ["recognition": 0.5, "synthesis": 1.25],
            texts: [.transcript: "Guten Morgen", .translation: "Bom dia", .srt: "1\n00:00:00,000 --> 00:00:01,000\nBom dia\n"],
            audio: [.init(role: .input, data: fakeAudio(1), format: "wav"), .init(role: .output, data: fakeAudio(2, count: 1000), format: "mp3")]))
        let second = try store.record(NewSession(
            kind: .transcription, createdAt: Date(timeIntervalSince1970: 1_790_100_000.75), texts: [.transcript: "Guten Morgen"],
            audio: [.init(role: .input, data: fakeAudio(1), format: "wav")]))
        return [first, second]
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warble-archive-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Everything but the id, and the stored audio's bytes.
    private func contents(_ session: StoredSession) -> String {
        var s = session.summary
        s.id = 0
        let audio = session.audio.map { "\($0.role) \($0.sha256) \($0.bytes) \($0.format) \(FileManager.default.contents(atPath: $0.path)?.count ?? -1)" }
        return "\(s) \(session.timings.sorted { $0.key < $1.key }) \(session.texts) \(audio)"
    }

    /// Rewrites a ZIP through python3's zipfile: `script` gets `name` and `data` (bytes) and sets `data`, or `skip = True`.
    private func rewrite(_ source: URL, to target: URL, _ script: String) throws {
        let program = """
            import sys, zipfile, json, hashlib, copy
            src, dst = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2], 'w')
            for info in src.infolist():
                name, data, skip = info.filename, src.read(info), False
            \(script.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                if not skip: dst.writestr(copy.copy(info), data)
            dst.close()
            """
        let (process, _) = try startPython(program, [source.path, target.path])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("export then import into a fresh history keeps every field and the audio bytes; audio shared by two sessions is in the archive once; importing twice stores no audio twice")
    func roundTrip() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("history.zip")
        try withHistoryDirectory { source in
            let store = try HistoryStore(directory: source)
            let ids = try recordSessions(in: store)
            let exported = try store.export(ids: nil, since: nil, to: archive)
            #expect(exported.ids == ids && exported.audioFiles == 2 && exported.audioBytes == 4096 + 1000)
            #expect(exported.archiveBytes > 0)
            let entries = try Archive(url: archive, accessMode: .read).map(\.path)
            #expect(entries.filter { $0.hasSuffix(".wav") || $0.hasSuffix(".mp3") }.count == 2, "\(entries)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["history.zip"])
            let originals = try ids.map { try #require(try store.session(id: $0)) }
            try withHistoryDirectory { target in
                let fresh = try HistoryStore(directory: target)
                let imported = try fresh.importArchive(from: archive)
                #expect(imported.ids.count == 2 && imported.audioFiles == 2 && imported.audioFilesAdded == 2)
                let copies = try imported.ids.map { try #require(try fresh.session(id: $0)) }
                for (original, copy) in zip(originals, copies) {
                    #expect(contents(original) == contents(copy))
                    #expect(original.summary.createdAt == copy.summary.createdAt)
                    for (a, b) in zip(original.audio, copy.audio) {
                        #expect(FileManager.default.contents(atPath: a.path) == FileManager.default.contents(atPath: b.path))
                    }
                }
                #expect(audioFiles(in: target).count == 2)
                let again = try fresh.importArchive(from: archive)
                #expect(again.ids.count == 2 && Set(again.ids).isDisjoint(with: imported.ids) && again.audioFilesAdded == 0)
                #expect(audioFiles(in: target).count == 2)
                #expect(try fresh.list().count == 4)
            }
        }
    }

    @Test("ids pick sessions, since keeps the newer ones; an unknown id or nothing to export is an error and writes nothing")
    func selection() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("some.zip")
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            let ids = try recordSessions(in: store)
            #expect(try store.export(ids: [ids[1]], since: nil, to: archive).ids == [ids[1]])
            #expect(try store.export(ids: nil, since: Date(timeIntervalSince1970: 1_790_050_000), to: archive).ids == [ids[1]])
            #expect(try store.export(ids: nil, since: Date(timeIntervalSince1970: 1_790_000_000), to: archive).ids == ids)
            try FileManager.default.removeItem(at: archive)
            let unknown = #expect(throws: HistoryError.self) { try store.export(ids: [ids[0], 999], since: nil, to: archive) }
            #expect(unknown?.reason == .notFound && unknown?.message.contains("no session 999") == true)
            let none = #expect(throws: HistoryError.self) { try store.export(ids: nil, since: Date(timeIntervalSince1970: 1_800_000_000), to: archive) }
            #expect(none?.reason == .notFound)
            // A stored file gone: the export fails and leaves no archive, not even a temporary one.
            let gone = try #require(try store.session(id: ids[0])?.audio.last)
            try FileManager.default.removeItem(atPath: gone.path)
            #expect(throws: HistoryError.self) { try store.export(ids: nil, since: nil, to: archive) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    /// Fields whose checksummed bytes are intact but whose values would reach a terminal, a date formatter or a
    /// sum unchecked: a year in the millions, escape sequences, newlines, a path as a language, sizes past a week.
    static let craftedFields: [(String, String)] = [
        ("createdAt", "1e308"), ("createdAt", "-5"), ("model", #""\u001b[31mred\u001b[0m""#), ("voice", #""a\nb""#),
        ("model", "\"" + String(repeating: "m", count: 300) + "\""), ("sourceLanguage", #""../etc""#), ("duration", "-1"),
        ("duration", "1e300"), ("timings", #"{"recognition": 1e308}"#), ("timings", #"{"\u001b[2J": 1}"#),
    ]

    @Test("a tampered, incomplete, unknown-version, crafted or non-ZIP archive is refused and the history is left as it was")
    func refusals() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("good.zip")
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            _ = try recordSessions(in: store)
            _ = try store.export(ids: nil, since: nil, to: archive)
        }
        let cases: [(String, String)] = [
            ("audio bytes changed", "if name.endswith('input.wav'): data = bytes([data[0] ^ 1]) + data[1:]"),
            ("manifest sha changed", """
                if name == 'manifest.json':
                    m = json.loads(data); a = m['sessions'][0]['audio'][0]; a['sha256'] = hashlib.sha256(b'other').hexdigest()
                    data = json.dumps(m).encode()
                """),
            ("audio entry missing", "skip = name.endswith('output.mp3')"),
            ("unknown version", """
                if name == 'manifest.json':
                    m = json.loads(data); m['version'] = 2; data = json.dumps(m).encode()
                """),
            ("no manifest", "skip = name == 'manifest.json'"),
        ] + Self.craftedFields.map { field, value in
            // The first session's field set to a JSON value (read by Python from a raw string).
            ("crafted \(field) \(value)", """
                if name == 'manifest.json':
                    m = json.loads(data); m['sessions'][0]['\(field)'] = json.loads(r'''\(value)''')
                    data = json.dumps(m).encode()
                """)
        }
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            let kept = try store.record(NewSession(kind: .speech, texts: [.source: "Kept."], audio: [.init(role: .output, data: fakeAudio(9), format: "wav")]))
            for (what, script) in cases {
                let bad = folder.appendingPathComponent("bad.zip")
                try rewrite(archive, to: bad, script)
                let error = #expect(throws: HistoryError.self, "\(what)") { try store.importArchive(from: bad) }
                #expect(error?.message.contains("nothing was imported") == true, "\(what): \(error?.message ?? "")")
                #expect(try store.list().map(\.id) == [kept], "\(what)")
                #expect(audioFiles(in: directory).count == 1, "\(what)")
            }
            let text = folder.appendingPathComponent("text.zip")
            try Data("not a zip".utf8).write(to: text)
            let notZip = #expect(throws: HistoryError.self) { try store.importArchive(from: text) }
            #expect(notZip?.message.contains("not a ZIP archive") == true)
            #expect(try store.list().map(\.id) == [kept])
            // The untouched archive still imports.
            #expect(try store.importArchive(from: archive).ids.count == 2)
        }
    }
}
