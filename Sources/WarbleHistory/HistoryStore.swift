import Foundation
import GRDB

/// The session history: `history.sqlite` (SQLite in WAL mode, through GRDB) and the content-addressed
/// audio files beside it, all under `$WARBLE_HOME/history/`.
///
/// Writes are safe against a crash or a kill: a session's audio files are written and flushed before the
/// transaction that adds the rows pointing at them, so a row never points at a missing file; a file whose
/// session was never committed is an orphan, removed by the next open once it is older than `orphanAge`.
/// Several processes may write at once: SQLite serialises the writers, each waiting up to `busyTimeout`. They must
/// be on one machine: a folder on a network or cluster file system is refused (`HistoryFileSystem`).
public final class HistoryStore: Sendable {
    public let directory: URL
    public var databaseURL: URL { directory.appendingPathComponent("history.sqlite") }
    let pool: DatabasePool
    let audio: HistoryAudio

    /// `$WARBLE_HOME/history`.
    public static func directory(home: URL) -> URL { home.appendingPathComponent("history", isDirectory: true) }

    /// Opens (creating and migrating if needed) the history in `directory`, then sweeps orphaned audio files.
    public init(directory: URL, orphanAge: TimeInterval = 60, busyTimeout: TimeInterval = 10) throws {
        self.directory = directory
        audio = HistoryAudio(directory: directory.appendingPathComponent("audio", isDirectory: true))
        let path = directory.appendingPathComponent("history.sqlite").path
        try HistoryFileSystem.requireLocal(directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            configuration.label = "warble.history"
            pool = try DatabasePool(path: path, configuration: configuration)
            try HistoryMigrations.migrator.migrate(pool)
        } catch {
            throw HistoryError.wrapping(error, doing: "open the history", at: path)
        }
        try sweepOrphans(olderThan: orphanAge)
    }

    /// Removes audio files (and left-over temporary files) that no session references and that are older
    /// than `age` seconds. Runs under the write lock, so no writer of this or another process is between
    /// storing a file and committing its row (writers store their files inside their transaction).
    @discardableResult
    public func sweepOrphans(olderThan age: TimeInterval) throws -> Int {
        let cutoff = Date().addingTimeInterval(-age)
        do {
            return try pool.writeWithoutTransaction { db in
                var removed = 0
                try db.inTransaction(.immediate) {
                    let referenced = Set(try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM session_audio"))
                    for file in audio.allFiles() where file.modified < cutoff {
                        let name = file.url.deletingPathExtension().lastPathComponent
                        if name.hasPrefix(".tmp-") || !referenced.contains(name) {
                            if audio.remove(file.url) { removed += 1 }
                        }
                    }
                    return .commit
                }
                return removed
            }
        } catch {
            throw HistoryError.wrapping(error, doing: "sweep orphaned audio", at: audio.directory.path)
        }
    }

    /// `PRAGMA integrity_check`'s answer ("ok" when the database is sound).
    public func integrityCheck() throws -> String {
        do {
            return try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
        } catch {
            throw HistoryError.wrapping(error, doing: "check the history", at: databaseURL.path)
        }
    }

    /// The journal mode in use ("wal").
    public func journalMode() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// The migrations applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try pool.read { db in try HistoryMigrations.migrator.appliedMigrations(db) }
    }

    /// Where a stored audio file lives.
    public func audioURL(sha256: String, format: String) -> URL { audio.url(sha256: sha256, format: format) }
}
