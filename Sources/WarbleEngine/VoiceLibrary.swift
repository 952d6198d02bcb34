import Foundation
import WarbleSpeech

/// The user's voices: one folder per voice under `$WARBLE_HOME/voices/<id>/`, each holding its
/// `profile.json` (`VoiceProfileFile`). Read as a snapshot that is taken again only when a profile
/// file was added, removed or changed, so that every process (a running server, `sd_warble`) sees a
/// voice added by another without a restart.
public final class VoiceLibrary: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The library as read at one moment: its voices, sorted by id, and the files that did not read.
    public struct Snapshot: Sendable {
        public let profiles: [VoiceProfile]
        public let problems: [VoiceLibraryError]
        /// Names, sizes and modification times of the profile files read (to tell when to read again).
        let signature: [String]

        public static let empty = Snapshot(profiles: [], problems: [], signature: [])

        /// The voice `id`, if the library has it.
        public func profile(_ id: String) -> VoiceProfile? { profiles.first { $0.id == id } }
    }

    /// The library now.
    public func snapshot() -> Snapshot {
        let files = profileFiles()
        var profiles: [VoiceProfile] = []
        var problems: [VoiceLibraryError] = []
        for (id, url) in files {
            do {
                let profile = try read(url)
                guard profile.id == id else {
                    throw VoiceLibraryError("\(url.path) holds voice '\(profile.id)', but its folder is '\(id)'")
                }
                profiles.append(profile)
            } catch let error as VoiceLibraryError {
                problems.append(error)
            } catch {
                problems.append(VoiceLibraryError("\(url.path): \(error)"))
            }
        }
        return Snapshot(profiles: profiles, problems: problems, signature: signature(files))
    }

    /// A new snapshot when the files changed since `old`, else nil.
    public func snapshot(ifNewerThan old: Snapshot) -> Snapshot? {
        signature(profileFiles()) == old.signature ? nil : snapshot()
    }

    /// Adds `profile`; refuses an invalid id, or one the library has (unless `replacing`). Written to a
    /// temporary file first and moved into place, so a reader never sees half a profile.
    public func add(_ profile: VoiceProfile, replacing: Bool = false) throws {
        guard VoiceProfile.isValidID(profile.id) else {
            throw VoiceLibraryError("'\(profile.id)' is not a usable voice name: use 1–64 letters, digits, '-', '_', '.' or ':'")
        }
        if let problem = profile.problem { throw VoiceLibraryError("voice '\(profile.id)' cannot be saved: \(problem)") }
        let folder = directory.appendingPathComponent(profile.id, isDirectory: true)
        let file = folder.appendingPathComponent("profile.json")
        if !replacing, FileManager.default.fileExists(atPath: file.path) {
            throw VoiceLibraryError("the voice library already has a voice '\(profile.id)'")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try VoiceProfileFile.encode(profile).write(to: file, options: .atomic)
        } catch let error as EncodingError {
            throw VoiceLibraryError("voice '\(profile.id)' cannot be saved: \(error)")
        } catch {
            throw VoiceLibraryError("cannot write \(file.path): \(error.localizedDescription)")
        }
    }

    /// Removes the voice `id` and its folder; a clear error when there is no such voice.
    public func remove(_ id: String) throws {
        guard VoiceProfile.isValidID(id) else { throw VoiceLibraryError("'\(id)' is not a voice name") }
        let folder = directory.appendingPathComponent(id, isDirectory: true)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("profile.json").path) else {
            throw VoiceLibraryError("the voice library has no voice '\(id)'")
        }
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            throw VoiceLibraryError("cannot remove \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Gives library voice `id` the name `newName` (its display name too, when that was its id): the profile is
    /// saved under the new name first, then the old one removed, so a failure leaves the voice where it was.
    @discardableResult
    public func rename(_ id: String, to newName: String) throws -> VoiceProfile {
        guard var profile = snapshot().profile(id) else { throw VoiceLibraryError("the voice library has no voice '\(id)'") }
        guard newName != id else { return profile }
        profile.id = newName
        if profile.displayName == id { profile.displayName = newName }
        try add(profile)
        try remove(id)
        return profile
    }

    /// Reads one profile file.
    public func read(_ url: URL) throws -> VoiceProfile {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw VoiceLibraryError("\(url.path) cannot be read")
        }
        return try VoiceProfileFile.decode(data, source: url.path)
    }

    /// Every `<id>/profile.json`, by folder name.
    private func profileFiles() -> [(String, URL)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.compactMap { name in
            let url = directory.appendingPathComponent(name, isDirectory: true).appendingPathComponent("profile.json")
            return FileManager.default.fileExists(atPath: url.path) ? (name, url) : nil
        }
    }

    private func signature(_ files: [(String, URL)]) -> [String] {
        files.map { name, url in
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let size = (attributes?[.size] as? Int) ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(name)\t\(size)\t\(modified)"
        }
    }
}
