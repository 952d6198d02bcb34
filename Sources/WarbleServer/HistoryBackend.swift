import Foundation

/// One session of the history as the server shows it: its id and its JSON object, encoded by the
/// history itself (the same object `warble history list --json` / `show --json` prints).
public struct HistoryItem: Sendable {
    public var id: Int64
    public var json: Data

    public init(id: Int64, json: Data) {
        self.id = id
        self.json = json
    }
}

/// The session history as `GET /v1/history…` and `DELETE /v1/history/{id}` read and change it
/// (`warble serve` hands in `$WARBLE_HOME/history`).
public protocol HistoryBackend: Sendable {
    /// Up to `limit` sessions, newest first, older than session `after` when given.
    func sessions(limit: Int, after: Int64?) async throws -> [HistoryItem]
    /// Up to `limit` sessions whose texts hold every word of `text` (`fli*` for a prefix), newest first.
    func search(_ text: String, limit: Int) async throws -> [HistoryItem]
    /// Session `id` with its texts and audio, or nil when there is none.
    func session(id: Int64) async throws -> HistoryItem?
    /// Writes session `id` as a ZIP archive to `file`; false when there is no such session.
    func export(id: Int64, to file: URL) async throws -> Bool
    /// Deletes session `id`; false when there was none.
    func delete(id: Int64) async throws -> Bool
}
