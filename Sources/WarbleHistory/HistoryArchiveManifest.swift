import Foundation

/// `manifest.json` of a history archive: what `HistoryStore.export` wrote and `importArchive` reads back.
/// Every field of each stored session, its texts, and where in the archive each of its audio files lies.
struct HistoryArchiveManifest: Codable, Sendable {
    static let formatName = "warble-history"
    static let currentVersion = 1
    static let path = "manifest.json"

    /// The format's name and version alone, read first so that an unknown version is refused by name.
    struct Header: Codable, Sendable {
        var format: String
        var version: Int
    }

    struct Session: Codable, Sendable, Equatable {
        struct Audio: Codable, Sendable, Equatable {
            var role: SessionAudioRole
            var format: String
            var sha256: String
            var bytes: Int64
            /// The entry holding the file's bytes.
            var path: String
        }

        /// The id in the history it was exported from (an import gives it a new one).
        var id: Int64
        var kind: SessionKind
        /// Seconds since 1970, as stored (a number, so that it comes back exactly).
        var createdAt: Double
        var model: String?
        var voice: String?
        var sourceLanguage: String?
        var targetLanguage: String?
        var duration: Double?
        var timings: [String: Double]
        var texts: [StoredSession.Text]
        var audio: [Audio]
        /// The session's folder in the archive (`sessions/<id>-<kind>/`).
        var folder: String
    }

    var format: String
    var version: Int
    /// When the archive was written (ISO-8601).
    var created: String
    var sessions: [Session]
}

/// What `HistoryStore.export` wrote.
public struct HistoryExport: Codable, Sendable, Equatable {
    /// The archive's path.
    public var path: String
    /// The exported sessions' ids, oldest first.
    public var ids: [Int64]
    public var audioFiles: Int
    /// The audio files' bytes added up.
    public var audioBytes: Int64
    /// The archive's size.
    public var archiveBytes: Int64
}

/// What `HistoryStore.importArchive` added.
public struct HistoryImport: Codable, Sendable, Equatable {
    /// The new ids of the imported sessions, in the archive's order.
    public var ids: [Int64]
    /// Audio files the archive references.
    public var audioFiles: Int
    /// Of those, the ones not already stored (the rest were found by their SHA-256 and reused).
    public var audioFilesAdded: Int
}
