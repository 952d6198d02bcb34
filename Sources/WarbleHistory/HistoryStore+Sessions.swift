import Foundation
import GRDB

extension HistoryStore {
    /// Records a session and returns its id. Its audio files are stored (or found already stored) inside the
    /// write transaction and before the rows that point at them; a failure leaves no part of the session.
    @discardableResult
    public func record(_ session: NewSession) throws -> Int64 {
        let timings = String(decoding: try JSONEncoder.sorted.encode(session.timings), as: UTF8.self)
        do {
            return try pool.writeWithoutTransaction { db in
                var id: Int64 = 0
                try db.inTransaction(.immediate) {
                    let stored = try session.audio.map { item in
                        (item, try audio.store(item.data, format: Self.fileExtension(item.format)))
                    }
                    try db.execute(sql: """
                        INSERT INTO session (kind, created_at, model, voice, source_language, target_language, duration, timings)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [session.kind.rawValue, session.createdAt.timeIntervalSince1970, session.model,
                                         session.voice, session.sourceLanguage, session.targetLanguage, session.duration, timings])
                    id = db.lastInsertedRowID
                    for (role, text) in session.texts.sorted(by: { $0.key < $1.key }) {
                        try db.execute(sql: "INSERT INTO session_text (session_id, role, text) VALUES (?, ?, ?)",
                                       arguments: [id, role.rawValue, text])
                    }
                    for (item, sha256) in stored {
                        try db.execute(sql: "INSERT INTO session_audio (session_id, role, sha256, bytes, format) VALUES (?, ?, ?, ?, ?)",
                                       arguments: [id, item.role.rawValue, sha256, item.data.count, Self.fileExtension(item.format)])
                    }
                    return .commit
                }
                return id
            }
        } catch {
            throw HistoryError.wrapping(error, doing: "record the session", at: directory.path)
        }
    }

    /// The newest sessions first; with `after`, those older than session `after` (the next page).
    public func list(limit: Int = 50, after: Int64? = nil) throws -> [SessionSummary] {
        try reading("list the history") { db in
            try Row.fetchAll(db, sql: "\(Self.summarySQL) WHERE s.id < ? ORDER BY s.id DESC LIMIT ?",
                             arguments: [after ?? Int64.max, limit]).map(Self.summary)
        }
    }

    /// Sessions whose texts hold every word of `text` (SQLite FTS5; each word matched as typed, or as a prefix with a trailing *).
    public func search(_ text: String, limit: Int = 50) throws -> [SessionSummary] {
        let words = text.split(whereSeparator: \.isWhitespace).map { word -> String in
            let prefix = word.hasSuffix("*") && word.count > 1
            let body = prefix ? word.dropLast() : word[...]
            return "\"" + body.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? "*" : "")
        }
        guard !words.isEmpty else { return [] }
        return try reading("search the history") { db in
            try Row.fetchAll(db, sql: """
                \(Self.summarySQL) WHERE s.id IN (
                    SELECT t.session_id FROM session_text_fts f JOIN session_text t ON t.id = f.rowid WHERE session_text_fts MATCH ?)
                ORDER BY s.id DESC LIMIT ?
                """, arguments: [words.joined(separator: " "), limit]).map(Self.summary)
        }
    }

    /// One session with its texts and audio, or nil when there is none with this id.
    public func session(id: Int64) throws -> StoredSession? {
        try reading("read the history") { db in
            guard let row = try Row.fetchOne(db, sql: "\(Self.summarySQL) WHERE s.id = ?", arguments: [id]) else { return nil }
            let timingsJSON: String = row["timings"]
            let timings = (try? JSONDecoder().decode([String: Double].self, from: Data(timingsJSON.utf8))) ?? [:]
            let texts = try Row.fetchAll(db, sql: "SELECT role, text FROM session_text WHERE session_id = ? ORDER BY id", arguments: [id])
                .compactMap { row -> StoredSession.Text? in
                    guard let role = SessionTextRole(rawValue: row["role"]) else { return nil }
                    return StoredSession.Text(role: role, text: row["text"])
                }
            let audio = try Row.fetchAll(db, sql: "SELECT role, sha256, bytes, format FROM session_audio WHERE session_id = ? ORDER BY role",
                                         arguments: [id])
                .compactMap { row -> StoredSession.Audio? in
                    guard let role = SessionAudioRole(rawValue: row["role"]) else { return nil }
                    let sha256: String = row["sha256"], format: String = row["format"]
                    return StoredSession.Audio(role: role, sha256: sha256, bytes: row["bytes"], format: format,
                                               path: audioURL(sha256: sha256, format: format).path)
                }
            return StoredSession(summary: try Self.summary(row), timings: timings, texts: texts, audio: audio)
        }
    }

    /// Deletes a session and the audio files no other session references. False when there was none with this id.
    @discardableResult
    public func delete(id: Int64) throws -> Bool {
        try deleting("delete the session", where: "id = ?", arguments: [id]) > 0
    }

    /// Deletes every session and every stored audio file; returns how many sessions there were.
    @discardableResult
    public func clear() throws -> Int {
        try deleting("clear the history", where: "1", arguments: [])
    }

    /// Deletes sessions in one transaction, then, in a second one, the audio files no row references any more.
    /// A crash between the two leaves orphans for the sweep, never a row pointing at a removed file; and since
    /// writers store their files inside their own transaction, a file another writer has just reused is
    /// referenced by its committed row when the second transaction looks.
    private func deleting(_ what: String, where condition: String, arguments: StatementArguments) throws -> Int {
        do {
            return try pool.writeWithoutTransaction { db in
                var count = 0
                var files: [(sha256: String, format: String)] = []
                try db.inTransaction(.immediate) {
                    files = try Row.fetchAll(db, sql: """
                        SELECT DISTINCT sha256, format FROM session_audio WHERE session_id IN (SELECT id FROM session WHERE \(condition))
                        """, arguments: arguments).map { (sha256: $0["sha256"] as String, format: $0["format"] as String) }
                    try db.execute(sql: "DELETE FROM session WHERE \(condition)", arguments: arguments)
                    count = db.changesCount
                    return .commit
                }
                guard !files.isEmpty else { return count }
                try db.inTransaction(.immediate) {
                    let still = Set(try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM session_audio"))
                    audio.remove(files.filter { !still.contains($0.sha256) })
                    return .commit
                }
                return count
            }
        } catch {
            throw HistoryError.wrapping(error, doing: what, at: directory.path)
        }
    }

    private func reading<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch {
            throw HistoryError.wrapping(error, doing: what, at: databaseURL.path)
        }
    }

    private static let summarySQL = """
        SELECT s.*, COALESCE(
            (SELECT text FROM session_text WHERE session_id = s.id AND role = 'translation'),
            (SELECT text FROM session_text WHERE session_id = s.id AND role = 'transcript'),
            (SELECT text FROM session_text WHERE session_id = s.id AND role = 'source'), '') AS preview
        FROM session s
        """

    private static func summary(_ row: Row) throws -> SessionSummary {
        let kind: String = row["kind"]
        guard let parsed = SessionKind(rawValue: kind) else { throw HistoryError(.corrupt, "unknown session kind \(kind)") }
        let preview: String = row["preview"]
        return SessionSummary(id: row["id"], kind: parsed, createdAt: Date(timeIntervalSince1970: row["created_at"]),
                              model: row["model"], voice: row["voice"], sourceLanguage: row["source_language"],
                              targetLanguage: row["target_language"], duration: row["duration"],
                              preview: String(preview.prefix(200)))
    }

    /// A safe file extension: letters and digits only, lowercased ("bin" when nothing is left).
    static func fileExtension(_ format: String) -> String {
        let cleaned = String(format.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.prefix(8))
        return cleaned.isEmpty ? "bin" : cleaned
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
