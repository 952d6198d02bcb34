import Foundation
import GRDB
import WarbleEngine
import ZIPFoundation

extension HistoryStore {
    /// Adds the sessions of an archive written by `export` and returns their new ids. The whole archive is
    /// checked first (a ZIP, a known manifest version, every audio entry present with the size and SHA-256 the
    /// manifest gives); anything amiss refuses it before anything is written. Then one transaction adds the
    /// sessions, storing each audio file through the content-addressed store, so a file already kept (an
    /// archive imported twice, or audio shared with another session) is reused, never copied again.
    public func importArchive(from url: URL) throws -> HistoryImport {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "not a ZIP archive" : "no such file"
            throw HistoryError(.corrupt, "cannot import \(url.path): \(reason)")
        }
        let manifest = try Self.validatedManifest(in: archive, at: url)
        let files = Dictionary(manifest.sessions.flatMap(\.audio).map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
        do {
            return try pool.writeWithoutTransaction { db in
                var ids: [Int64] = []
                var written: [URL] = []
                do {
                    try db.inTransaction(.immediate) {
                        for file in files.values.sorted(by: { $0.sha256 < $1.sha256 }) {
                            if try store(file, from: archive) { written.append(audio.url(sha256: file.sha256, format: file.format)) }
                        }
                        for session in manifest.sessions { ids.append(try insert(session, in: db)) }
                        return .commit
                    }
                } catch {
                    // Rolled back: the files this import added are referenced by nothing (the write lock is still held).
                    for file in written { audio.remove(file) }
                    throw error
                }
                return HistoryImport(ids: ids, audioFiles: files.count, audioFilesAdded: written.count)
            }
        } catch {
            throw HistoryError.wrapping(error, doing: "import \(url.lastPathComponent) into the history", at: directory.path)
        }
    }

    private func store(_ file: HistoryArchiveManifest.Session.Audio, from archive: Archive) throws -> Bool {
        guard let entry = archive[file.path] else { throw HistoryError(.corrupt, "the archive has no entry \(file.path)") }
        return try audio.store(sha256: file.sha256, format: file.format) { sink in
            _ = try archive.extract(entry, consumer: sink)
        }
    }

    private func insert(_ session: HistoryArchiveManifest.Session, in db: Database) throws -> Int64 {
        let timings = String(decoding: try JSONEncoder.sorted.encode(session.timings), as: UTF8.self)
        try db.execute(sql: """
            INSERT INTO session (kind, created_at, model, voice, source_language, target_language, duration, timings)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [session.kind.rawValue, session.createdAt, session.model, session.voice, session.sourceLanguage,
                             session.targetLanguage, session.duration, timings])
        let id = db.lastInsertedRowID
        for text in session.texts {
            try db.execute(sql: "INSERT INTO session_text (session_id, role, text) VALUES (?, ?, ?)",
                           arguments: [id, text.role.rawValue, text.text])
        }
        for item in session.audio {
            try db.execute(sql: "INSERT INTO session_audio (session_id, role, sha256, bytes, format) VALUES (?, ?, ?, ?, ?)",
                           arguments: [id, item.role.rawValue, item.sha256, item.bytes, item.format])
        }
        return id
    }

    /// The manifest, once the archive has been found whole: known format and version, sound fields, and every
    /// audio entry present with the size and SHA-256 given (read through, nothing written).
    private static func validatedManifest(in archive: Archive, at url: URL) throws -> HistoryArchiveManifest {
        func refuse(_ why: String) -> HistoryError { HistoryError(.corrupt, "cannot import \(url.path): \(why); nothing was imported") }
        guard let entry = archive[HistoryArchiveManifest.path], entry.type == .file else {
            throw refuse("not a Warble history archive (no \(HistoryArchiveManifest.path))")
        }
        guard entry.uncompressedSize <= 256 << 20 else { throw refuse("\(HistoryArchiveManifest.path) is too large") }
        var data = Data()
        do {
            _ = try archive.extract(entry) { data.append($0) }
        } catch {
            throw refuse("\(HistoryArchiveManifest.path) cannot be read (\(error))")
        }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(HistoryArchiveManifest.Header.self, from: data),
              header.format == HistoryArchiveManifest.formatName else {
            throw refuse("\(HistoryArchiveManifest.path) is not a Warble history manifest")
        }
        guard header.version == HistoryArchiveManifest.currentVersion else {
            throw refuse("its format version \(header.version) is not known (this warble reads version \(HistoryArchiveManifest.currentVersion))")
        }
        let manifest: HistoryArchiveManifest
        do {
            manifest = try decoder.decode(HistoryArchiveManifest.self, from: data)
        } catch {
            throw refuse("\(HistoryArchiveManifest.path) is not valid (\(error))")
        }
        var checked: [String: HistoryArchiveManifest.Session.Audio] = [:]
        for session in manifest.sessions {
            if let problem = session.problem { throw refuse("session \(session.id) \(problem)") }
            guard Set(session.texts.map(\.role)).count == session.texts.count else {
                throw refuse("session \(session.id) has a text role twice")
            }
            guard Set(session.audio.map(\.role)).count == session.audio.count else {
                throw refuse("session \(session.id) has an audio role twice")
            }
            for file in session.audio {
                guard file.sha256.count == 64, file.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                    throw refuse("session \(session.id) has an audio SHA-256 that is not one (\(file.sha256))")
                }
                guard file.format == fileExtension(file.format) else {
                    throw refuse("session \(session.id) has an audio format that is not a file extension (\(file.format))")
                }
                if let earlier = checked[file.sha256] {
                    guard earlier.bytes == file.bytes, earlier.format == file.format else {
                        throw refuse("the audio \(file.sha256) is listed with two sizes or formats")
                    }
                    continue
                }
                try check(file, in: archive, refuse: refuse)
                checked[file.sha256] = file
            }
        }
        return manifest
    }

    private static func check(_ file: HistoryArchiveManifest.Session.Audio, in archive: Archive,
                              refuse: (String) -> HistoryError) throws {
        guard let entry = archive[file.path], entry.type == .file else { throw refuse("the archive has no entry \(file.path)") }
        guard entry.uncompressedSize == UInt64(clamping: file.bytes) else {
            throw refuse("\(file.path) holds \(entry.uncompressedSize) bytes, the manifest says \(file.bytes)")
        }
        var digest = SHA256()
        do {
            _ = try archive.extract(entry) { digest.update($0) }
        } catch {
            throw refuse("\(file.path) cannot be read (\(error))")
        }
        let found = digest.finalizeHex()
        guard found == file.sha256 else {
            throw refuse("\(file.path) does not match the manifest (SHA-256 \(found), \(file.sha256) expected)")
        }
    }
}
