import Foundation
import ONNXRuntime
@_exported import WarbleSpeech

/// The models installed under `$WARBLE_HOME/models/<id>/`, each described by its `manifest.json`.
/// The store reads and checks; installing is the set-up's job (`scripts/setup.sh`).
public struct ModelStore: Sendable {
    /// `$WARBLE_HOME`.
    public let home: URL

    public init(home: URL = LibraryLocator.warbleHome()) {
        self.home = home
    }

    public var modelsDirectory: URL { home.appendingPathComponent("models", isDirectory: true) }
    /// The voice library: `voices/<id>/profile.json`.
    public var voicesDirectory: URL { home.appendingPathComponent("voices", isDirectory: true) }

    /// `$WARBLE_HOME` as the environment sets it (default `$XDG_DATA_HOME/warble`, `~/.local/share/warble`).
    public static var defaultHome: URL { LibraryLocator.warbleHome() }
    /// The environment variable that names ONNX Runtime's library file.
    public static var runtimeLibraryVariable: String { LibraryLocator.libraryVariable }

    /// Every installed model whose manifest reads, sorted by id, and the problems with the others.
    public func scan() -> (models: [InstalledModel], problems: [ModelStoreError]) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: modelsDirectory.path)) ?? []
        var models: [InstalledModel] = []
        var problems: [ModelStoreError] = []
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let directory = modelsDirectory.appendingPathComponent(entry, isDirectory: true)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            do {
                models.append(try load(directory: directory))
            } catch let error as ModelStoreError {
                problems.append(error)
            } catch {
                problems.append(ModelStoreError(.corrupt, "\(directory.path): \(error)"))
            }
        }
        return (models, problems)
    }

    /// The installed model `id`; a clear error when it is missing or its manifest is unreadable.
    public func model(_ id: String) throws -> InstalledModel {
        let directory = modelsDirectory.appendingPathComponent(id, isDirectory: true)
        guard FileManager.default.fileExists(atPath: directory.path) else {
            let known = scan().models.map(\.manifest.id)
            throw ModelStoreError(
                .notInstalled,
                "model '\(id)' is not installed in \(modelsDirectory.path)"
                    + (known.isEmpty ? "" : " (installed: \(known.joined(separator: ", ")))")
                    + "; install it with `warble models pull` (`warble models available` lists the models it can pull)")
        }
        return try load(directory: directory)
    }

    private func load(directory: URL) throws -> InstalledModel {
        let manifestURL = directory.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else {
            throw ModelStoreError(.corrupt, "\(manifestURL.path) is missing; install the model again with `warble models pull`")
        }
        do {
            let manifest = try JSONDecoder().decode(ModelManifest.self, from: data)
            return InstalledModel(manifest: manifest, directory: directory)
        } catch {
            throw ModelStoreError(.corrupt, "\(manifestURL.path) is not a valid manifest (\(error)); install the model again with `warble models pull`")
        }
    }
}

/// A model directory and its manifest.
public struct InstalledModel: Sendable, Equatable {
    public let manifest: ModelManifest
    public let directory: URL

    /// The URL of a file listed in the manifest.
    public func url(for path: String) -> URL { directory.appendingPathComponent(path) }

    /// Checks that every listed file exists with the listed size, and (when `checksums`) its sha256.
    /// Returns one message per problem; empty when the model is intact.
    public func verify(checksums: Bool) -> [String] {
        var problems: [String] = []
        for file in manifest.files {
            let url = url(for: file.path)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                  let size = attributes[.size] as? Int
            else {
                problems.append("\(url.path) is missing")
                continue
            }
            if size != file.bytes {
                problems.append("\(url.path) has \(size) bytes, the manifest says \(file.bytes)")
                continue
            }
            if checksums {
                let digest = (try? SHA256.hex(ofFile: url)) ?? "unreadable"
                if digest != file.sha256 {
                    problems.append("\(url.path) has sha256 \(digest), the manifest says \(file.sha256)")
                }
            }
        }
        return problems
    }
}

/// Failures of the model store.
public struct ModelStoreError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        case notInstalled
        case corrupt
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
