import Foundation
import Testing
@testable import WarbleHistory

/// Two processes on one history: a real second writer (Python's sqlite3, the same SQLite library, WAL mode),
/// and a writer killed in the middle of its transaction.
@Suite("History across processes")
struct HistoryProcessTests {
    /// Holds the write lock for 0.3 s (one session in an open transaction), then writes `count` more sessions
    /// the way HistoryStore does: one immediate transaction each.
    static let writer = """
        import sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], timeout=10, isolation_level=None)
        def session(text):
            cur = db.execute("INSERT INTO session (kind, created_at, timings) VALUES ('transcription', ?, '{}')", (time.time(),))
            db.execute("INSERT INTO session_text (session_id, role, text) VALUES (?, 'transcript', ?)", (cur.lastrowid, text))
        db.execute("BEGIN IMMEDIATE")
        session("python held")
        print("holding", flush=True)
        time.sleep(0.3)
        db.execute("COMMIT")
        for i in range(int(sys.argv[2])):
            db.execute("BEGIN IMMEDIATE")
            session(f"python {i}")
            db.execute("COMMIT")
            time.sleep(0.002)
        """

    @Test("a second process writing at the same time: this one waits for its lock, every session of both is there")
    func concurrentWriter() throws {
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            let count = 60
            let (python, output) = try startPython(Self.writer, [store.databaseURL.path, String(count)])
            #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).contains("holding"))
            // The other process holds the write lock: this write waits for it rather than failing.
            let started = Date()
            let first = try store.record(NewSession(kind: .speech, texts: [.source: "swift waited"]))
            #expect(Date().timeIntervalSince(started) > 0.1)
            let held = try store.search("held").map(\.id)
            #expect(held.count == 1 && held[0] < first)  // committed before this write could start
            for i in 1..<count {
                try store.record(NewSession(kind: .speech, texts: [.source: "swift \(i)"],
                                            audio: [.init(role: .output, data: fakeAudio(UInt8(i % 3)), format: "wav")]))
            }
            python.waitUntilExit()
            #expect(python.terminationStatus == 0)
            let sessions = try store.list(limit: 1000)
            #expect(sessions.filter { $0.kind == .speech }.count == count)
            #expect(sessions.filter { $0.kind == .transcription }.count == count + 1)
            #expect(Set(sessions.map(\.preview)).count == 2 * count + 1)
            #expect(try store.search("python", limit: 1000).count == count + 1)
            // How often the writer changes along the ids (printed: how much the two loops overlapped).
            let kinds = sessions.sorted { $0.id < $1.id }.map(\.kind)
            let switches = zip(kinds, kinds.dropFirst()).filter { $0 != $1 }.count
            print("history: concurrent writers: \(switches) switches between the processes over \(kinds.count) sessions")
            #expect(audioFiles(in: directory).count == 3)
            #expect(try store.integrityCheck() == "ok")
        }
    }

    /// Stores an audio file as HistoryStore does (before the rows), starts the transaction, then waits to be killed.
    static let killed = """
        import os, sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], timeout=10, isolation_level=None)
        with open(sys.argv[2], "wb") as f:
            f.write(b"half a session")
            f.flush(); os.fsync(f.fileno())
        db.execute("BEGIN IMMEDIATE")
        cur = db.execute("INSERT INTO session (kind, created_at, timings) VALUES ('speech', ?, '{}')", (time.time(),))
        db.execute("INSERT INTO session_text (session_id, role, text) VALUES (?, 'source', 'interrupted')", (cur.lastrowid,))
        print("writing", flush=True)
        time.sleep(60)
        """

    @Test("a writer killed mid-transaction: the database stays sound, no half session, its orphan file is swept")
    func killDuringWrite() throws {
        try withHistoryDirectory { directory in
            let store = try HistoryStore(directory: directory)
            let kept = try store.record(NewSession(kind: .speech, texts: [.source: "kept"],
                                                   audio: [.init(role: .output, data: fakeAudio(9), format: "wav")]))
            let orphan = store.audioURL(sha256: String(repeating: "ab", count: 32), format: "wav")
            try FileManager.default.createDirectory(at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
            let (python, output) = try startPython(Self.killed, [store.databaseURL.path, orphan.path])
            let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            #expect(said.contains("writing"))
            kill(python.processIdentifier, SIGKILL)
            python.waitUntilExit()
            #expect(python.terminationReason == .uncaughtSignal)

            // Young orphans are left alone (their writer may still be about to commit) …
            let reopened = try HistoryStore(directory: directory)
            #expect(FileManager.default.fileExists(atPath: orphan.path))
            // … old ones are swept at open.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: orphan.path)
            let swept = try HistoryStore(directory: directory)
            #expect(!FileManager.default.fileExists(atPath: orphan.path))
            #expect(try swept.integrityCheck() == "ok")
            #expect(try swept.list().map(\.id) == [kept])
            #expect(try swept.search("interrupted").isEmpty)
            let keptAudio = try #require(try swept.session(id: kept)?.audio.first)
            #expect(FileManager.default.contents(atPath: keptAudio.path) == fakeAudio(9))
            // The killed writer's lock died with it: writing goes on.
            #expect(try reopened.record(NewSession(kind: .speech, texts: [.source: "after"])) > kept)
        }
    }
}
