import Foundation
import GRDB
import WarbleEngine
import ZIPFoundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HistoryStore {
    /// Writes sessions to a ZIP archive at `url` (replacing a file there): `manifest.json`, then for each session
    /// `sessions/<id>-<kind>/` with its texts (`.txt`, `subtitles.srt`), `session.json` and its audio files
    /// (`<role>.<ext>`). Audio that several sessions share (the same SHA-256) is written once, in the folder of the
    /// first; the others' manifest entries point there. `ids` picks sessions (each must exist), `since` keeps those created at or after it;
    /// nil for both exports every session. Audio is streamed from the stored files in chunks, each checked
    /// against its SHA-256 on the way; the archive is written to a temporary file beside `url` and renamed
    /// into place at the end, so a failure leaves no partial archive.
    public func export(ids: [Int64]?, since: Date?, to url: URL) throws -> HistoryExport {
        let sessions = try exportedSessions(ids: ids, since: since)
        guard !sessions.isEmpty else {
            throw HistoryError(.notFound, since.map { "no sessions to export: none created since \(ISO8601DateFormatter().string(from: $0))" }
                               ?? "no sessions to export: the history is empty")
        }
        var placed: [String: String] = [:]
        let manifest = HistoryArchiveManifest(
            format: HistoryArchiveManifest.formatName, version: HistoryArchiveManifest.currentVersion,
            created: ISO8601DateFormatter().string(from: Date()), sessions: sessions.map { Self.manifestSession($0, placed: &placed) })
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(UUID().uuidString)")
        let manager = FileManager.default
        do {
            try write(manifest, sessions: sessions, to: temporary)
            let handle = try FileHandle(forUpdating: temporary)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? manager.removeItem(at: temporary)
            throw HistoryError.wrapping(error, doing: "export the history", at: url.path)
        }
        let audio = Dictionary(manifest.sessions.flatMap(\.audio).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first }).values
        let size = (try? manager.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        return HistoryExport(path: url.path, ids: manifest.sessions.map(\.id), audioFiles: audio.count,
                             audioBytes: audio.reduce(0) { $0 + $1.bytes }, archiveBytes: size)
    }

    /// The sessions to export, oldest first.
    private func exportedSessions(ids: [Int64]?, since: Date?) throws -> [StoredSession] {
        let chosen: [Int64]
        if let ids {
            chosen = Array(Set(ids)).sorted()
        } else {
            do {
                chosen = try pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM session ORDER BY id") }
            } catch {
                throw HistoryError.wrapping(error, doing: "read the history", at: databaseURL.path)
            }
        }
        var sessions: [StoredSession] = []
        for id in chosen {
            guard let session = try session(id: id) else {
                throw HistoryError(.notFound, "no session \(id) in the history")
            }
            if let since, session.summary.createdAt < since { continue }
            sessions.append(session)
        }
        return sessions
    }

    private func write(_ manifest: HistoryArchiveManifest, sessions: [StoredSession], to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        let encoder = JSONEncoder.sorted
        encoder.outputFormatting.insert(.prettyPrinted)
        try Self.add(try encoder.encode(manifest), at: HistoryArchiveManifest.path, to: archive)
        var written: Set<String> = []
        for (entry, session) in zip(manifest.sessions, sessions) {
            for text in session.texts {
                let name = text.role == .srt ? "subtitles.srt" : "\(text.role.rawValue).txt"
                try Self.add(Data(text.text.utf8), at: entry.folder + name, to: archive)
            }
            try Self.add(try encoder.encode(entry), at: entry.folder + "session.json", to: archive)
            for (item, stored) in zip(entry.audio, session.audio) where written.insert(item.path).inserted {
                try Self.addAudio(from: URL(fileURLWithPath: stored.path), bytes: item.bytes, sha256: item.sha256,
                                  at: item.path, to: archive)
            }
        }
    }

    private static func add(_ data: Data, at path: String, to archive: Archive) throws {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// Adds a stored audio file, read in chunks and checked against its size and digest as it goes.
    private static func addAudio(from file: URL, bytes: Int64, sha256: String, at path: String, to archive: Archive) throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            throw HistoryError(.notFound, "the audio file \(file.path) is missing from the history")
        }
        defer { try? handle.close() }
        var digest = SHA256()
        var read: Int64 = 0
        try archive.addEntry(with: path, type: .file, uncompressedSize: bytes, compressionMethod: .none) { position, size in
            try handle.seek(toOffset: UInt64(position))
            let chunk = try handle.read(upToCount: size) ?? Data()
            guard chunk.count == size else {
                throw HistoryError(.corrupt, "the audio file \(file.path) is shorter than the \(bytes) bytes recorded")
            }
            digest.update(chunk)
            read += Int64(chunk.count)
            return chunk
        }
        let found = digest.finalizeHex()
        let longer = (try? handle.read(upToCount: 1))?.isEmpty == false
        guard read == bytes, !longer, found == sha256 else {
            throw HistoryError(.corrupt, "the audio file \(file.path) no longer has the bytes recorded (SHA-256 \(found), \(sha256) expected)")
        }
    }

    /// The session's manifest entry; `placed` maps each SHA-256 to the entry already holding it.
    private static func manifestSession(_ session: StoredSession, placed: inout [String: String]) -> HistoryArchiveManifest.Session {
        let s = session.summary
        let folder = "sessions/\(s.id)-\(s.kind.rawValue)/"
        return HistoryArchiveManifest.Session(
            id: s.id, kind: s.kind, createdAt: s.createdAt.timeIntervalSince1970, model: s.model, voice: s.voice,
            sourceLanguage: s.sourceLanguage, targetLanguage: s.targetLanguage, duration: s.duration, timings: session.timings,
            texts: session.texts,
            audio: session.audio.map { audio in
                let path = placed[audio.sha256] ?? folder + "\(audio.role.rawValue).\(audio.format)"
                placed[audio.sha256] = path
                return .init(role: audio.role, format: audio.format, sha256: audio.sha256, bytes: audio.bytes, path: path)
            },
            folder: folder)
    }
}
