import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installs a model into the store from a `ModelSource`, the way a serious downloader should:
/// partial files (`<name>.incomplete`) wait in `$WARBLE_HOME/cache/downloads/<id>/` and are continued
/// by the next attempt; every file is checked (size, and sha256/md5 where the source gives them)
/// before it counts; the model appears in `models/<id>/` only when all of it is there, with its
/// manifest written last and the directory renamed into place; one lock per model keeps two installs
/// of it from mixing. Running it again for an installed, intact model from the same source does nothing.
public struct ModelInstaller: Sendable {
    public let store: ModelStore

    public init(store: ModelStore = ModelStore()) {
        self.store = store
    }

    /// What to install: the model id, the files (each with the name it gets in the model's
    /// directory), and the manifest made from the assembled directory and its files' entries (its
    /// `id` and `source` are set by the installer).
    public struct Plan: Sendable {
        public var id: String
        public var files: [(remote: RemoteFile, name: String)]
        public var manifest: @Sendable (URL, [ModelManifest.File]) throws -> ModelManifest
        /// Files an installed copy may lack and still count as this model (a model card): a voice
        /// the set-up installed from another source is not downloaded again for them.
        public var optional: Set<String>
        /// A conversion the family needs (downloaded files' directory → the model's directory, which
        /// it fills): the manifest is then made from the converted directory, and records the
        /// downloaded files as `derivedFrom`.
        public var convert: (@Sendable (URL, URL) async throws -> Void)?
        /// The version of the conversion's tools (recorded in the manifest): an installed model made by
        /// another version is installed again.
        public var converterVersion: String?

        public init(id: String, files: [(remote: RemoteFile, name: String)], optional: Set<String> = [],
                    convert: (@Sendable (URL, URL) async throws -> Void)? = nil, converterVersion: String? = nil,
                    manifest: @escaping @Sendable (URL, [ModelManifest.File]) throws -> ModelManifest) {
            self.id = id
            self.files = files
            self.optional = optional
            self.convert = convert
            self.converterVersion = converterVersion
            self.manifest = manifest
        }
    }

    /// Progress of an install, in bytes: of the current file and of all files.
    public struct Progress: Sendable {
        public var file: String
        public var fileBytes: Int64
        public var fileTotal: Int64
        public var bytes: Int64
        public var total: Int64
    }

    public enum Outcome: Sendable, Equatable {
        case installed(InstalledModel)
        case alreadyInstalled(InstalledModel)

        /// The model, installed now or before.
        public var model: InstalledModel {
            switch self {
            case .installed(let model), .alreadyInstalled(let model): model
            }
        }
    }

    /// The directory where `id`'s partial downloads wait.
    public func downloads(for id: String) -> URL {
        store.home.appendingPathComponent("cache/downloads/\(id)", isDirectory: true)
    }

    public func install(_ plan: Plan, from source: any ModelSource, waiting: @Sendable () -> Void = {},
                        progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws -> Outcome {
        try ModelInstallError.check(id: plan.id)
        let fm = FileManager.default
        try fm.createDirectory(at: store.modelsDirectory, withIntermediateDirectories: true)
        let lock = try await ModelLock.acquire(store.modelsDirectory.appendingPathComponent(".\(plan.id).lock"), waiting: waiting)
        defer { lock.release() }

        if let existing = try? store.model(plan.id), Self.holds(existing, plan), existing.verify(checksums: false).isEmpty {
            return .alreadyInstalled(existing)
        }
        let staging = downloads(for: plan.id)
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        try checkSpace(plan, staging: staging)

        let total = plan.files.reduce(Int64(0)) { $0 + $1.remote.bytes }
        var done: Int64 = 0
        var digests: [String: String] = [:]
        for (remote, name) in plan.files {
            try Task.checkCancellation()
            let partial = staging.appendingPathComponent(Self.flatName(name) + ".incomplete")
            let before = done
            try await source.fetch(remote, into: partial) { bytes in
                progress(Progress(file: name, fileBytes: bytes, fileTotal: remote.bytes, bytes: before + bytes, total: total))
            }
            do {
                digests[name] = try Self.verify(partial, against: remote)
            } catch {
                try? fm.removeItem(at: partial)
                throw error
            }
            done += remote.bytes
        }

        // Everything is here and checked: assemble the model directory, manifest last, then swap it in.
        let building = store.modelsDirectory.appendingPathComponent(".\(plan.id).installing", isDirectory: true)
        try? fm.removeItem(at: building)
        try fm.createDirectory(at: building, withIntermediateDirectories: true)
        var entries: [ModelManifest.File] = []
        for (remote, name) in plan.files {
            let target = building.appendingPathComponent(name)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.moveItem(at: staging.appendingPathComponent(Self.flatName(name) + ".incomplete"), to: target)
            entries.append(ModelManifest.File(path: name, sha256: digests[name]!, bytes: Int(remote.bytes)))
        }
        var assembled = building
        if let convert = plan.convert {
            let converted = store.modelsDirectory.appendingPathComponent(".\(plan.id).converting", isDirectory: true)
            try? fm.removeItem(at: converted)
            try fm.createDirectory(at: converted, withIntermediateDirectories: true)
            do {
                try await convert(building, converted)
            } catch {
                // Keep the downloads for the next attempt: back to the staging directory, complete.
                try? fm.removeItem(at: converted)
                try? fm.createDirectory(at: staging, withIntermediateDirectories: true)
                for (_, name) in plan.files {
                    try? fm.moveItem(at: building.appendingPathComponent(name),
                                     to: staging.appendingPathComponent(Self.flatName(name) + ".incomplete"))
                }
                try? fm.removeItem(at: building)
                throw error
            }
            try? fm.removeItem(at: building)
            assembled = converted
        }
        var manifest = try plan.manifest(assembled, entries)
        manifest.id = plan.id
        if manifest.source.isEmpty { manifest.source = source.origin }
        if let version = plan.converterVersion { manifest.converterVersion = version }
        if plan.convert != nil {
            manifest.derivedFrom = .init(files: Dictionary(entries.map { ($0.path, $0.sha256) }, uniquingKeysWith: { a, _ in a }))
            let problems = InstalledModel(manifest: manifest, directory: assembled).verify(checksums: false)
            guard problems.isEmpty else {
                try? fm.removeItem(at: assembled)
                throw ModelInstallError("the conversion of \(plan.id) did not give the files its manifest lists: "
                    + problems.joined(separator: "; "))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(manifest).write(to: assembled.appendingPathComponent("manifest.json"), options: .atomic)

        let directory = store.modelsDirectory.appendingPathComponent(plan.id, isDirectory: true)
        let old = store.modelsDirectory.appendingPathComponent(".\(plan.id).old", isDirectory: true)
        try? fm.removeItem(at: old)
        if fm.fileExists(atPath: directory.path) { try fm.moveItem(at: directory, to: old) }
        try fm.moveItem(at: assembled, to: directory)
        try? fm.removeItem(at: old)
        try? fm.removeItem(at: staging)
        return .installed(InstalledModel(manifest: manifest, directory: directory))
    }

    /// Removes an installed model (under its lock, so not while it is being installed).
    public func remove(_ id: String) async throws {
        try ModelInstallError.check(id: id)
        let model = try store.model(id)
        let lock = try await ModelLock.acquire(store.modelsDirectory.appendingPathComponent(".\(id).lock"), waiting: {})
        defer { lock.release() }
        try FileManager.default.removeItem(at: model.directory)
        try? FileManager.default.removeItem(at: downloads(for: id))
    }

    /// Whether the installed model has every file of the plan, of the same size and (where the
    /// source gives one) the same sha256: nothing to download, whatever commit the source is at now.
    static func holds(_ model: InstalledModel, _ plan: Plan) -> Bool {
        if let version = plan.converterVersion, model.manifest.converterVersion != version { return false }
        // A file the model was made from (`derivedFrom`: a converted model), else one of its own
        // files (the set-up's voice holds the Hub's model.onnx itself, whatever it was made from).
        let sources = model.manifest.derivedFrom?.files ?? [:]
        let entries = Dictionary(model.manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        return plan.files.allSatisfy { remote, name in
            if let sha = sources[name] { return remote.sha256.map { $0.lowercased() == sha } ?? true }
            guard let entry = entries[name] else { return plan.optional.contains(name) }
            guard Int64(entry.bytes) == remote.bytes else { return false }
            return remote.sha256.map { $0.lowercased() == entry.sha256 } ?? true
        }
    }

    /// A file's name in the staging directory: its path with `/` made `%2F` (one flat directory).
    static func flatName(_ name: String) -> String { name.replacingOccurrences(of: "/", with: "%2F") }

    /// Size, then sha256 and md5 where known: a clear error naming both values on a mismatch. Returns
    /// the file's sha256 (computed in the same pass, for the manifest).
    static func verify(_ url: URL, against remote: RemoteFile) throws -> String {
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? -1
        guard size == remote.bytes else {
            throw ModelInstallError("\(remote.path) arrived with \(size) bytes, but the source lists \(remote.bytes); "
                + "the partial file was deleted: pull again")
        }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var sha = SHA256(), md5 = MD5()
        while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
            sha.update(block)
            if remote.md5 != nil { md5.update(block) }
        }
        let got = sha.finalizeHex()
        if let expected = remote.sha256?.lowercased() {
            guard got == expected else {
                throw ModelInstallError("\(remote.path) is corrupt: its sha256 is \(got), the source says \(expected); "
                    + "the file was deleted: pull again (if it repeats, the source or a proxy on the way is damaging it)")
            }
        }
        if let expected = remote.md5?.lowercased() {
            let md5Hex = md5.finalizeHex()
            guard md5Hex == expected else {
                throw ModelInstallError("\(remote.path) is corrupt: its md5 is \(md5Hex), the catalogue says \(expected); "
                    + "the file was deleted: pull again")
            }
        }
        return got
    }

    /// Enough free space for what is still to come (and 64 MiB to spare), or a clear error.
    func checkSpace(_ plan: Plan, staging: URL) throws {
        var needed: Int64 = 64 << 20
        for (remote, name) in plan.files {
            let partial = staging.appendingPathComponent(Self.flatName(name) + ".incomplete")
            let have = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? NSNumber)?.int64Value ?? 0
            needed += max(0, remote.bytes - have)
        }
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: staging.path)[.systemFreeSize] as? NSNumber)?.int64Value
        else { return }
        guard free >= needed else {
            throw ModelInstallError("not enough disk space for \(plan.id) in \(store.home.path): it needs "
                + "\(needed >> 20) MiB more, \(free >> 20) MiB are free")
        }
    }
}

/// A failed install, with what to do about it.
public struct ModelInstallError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// Model ids are directory names: letters, digits and `._-` only, not starting with a dot.
    static func check(id: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !id.isEmpty, id.count <= 200, !id.hasPrefix("."), id.allSatisfy(allowed.contains) else {
            throw ModelInstallError("'\(id)' cannot be a model id (letters, digits, '.', '_' and '-' only)")
        }
    }
}

/// An exclusive advisory lock on a file (flock), held until released or the process ends. Waiting
/// polls (the cooperative threads must not block: the holder may need them to finish).
final class ModelLock: @unchecked Sendable {
    private let handle: FileHandle

    private init(handle: FileHandle) { self.handle = handle }

    static func acquire(_ url: URL, waiting: () -> Void) async throws -> ModelLock {
        // open(2) with O_CREAT, never FileManager.createFile: that writes a new file and renames it
        // over the path, so two pulls starting together could each lock a file of their own.
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ModelInstallError("could not open \(url.path) (errno \(errno))") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var told = false
        while flock(handle.fileDescriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                try? handle.close()
                throw ModelInstallError("could not lock \(url.path) (errno \(errno))")
            }
            if !told { waiting(); told = true }
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                try? handle.close()
                throw error
            }
        }
        return ModelLock(handle: handle)
    }

    func release() {
        flock(handle.fileDescriptor, LOCK_UN)
        try? handle.close()
    }
}
