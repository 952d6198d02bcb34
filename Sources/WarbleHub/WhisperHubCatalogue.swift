import Foundation
import WarbleEngine

/// Whisper in CTranslate2 form from `Systran/faster-whisper-SIZE` (`model.bin`, `config.json`,
/// `tokenizer.json`, `vocabulary.txt`; large-v3 and its turbo `vocabulary.json` and
/// `preprocessor_config.json`, the turbo from the repository the catalogue names for it), converted to
/// ONNX on pull by the project's own converter (tools/whisper/convert_ct2.py, run with the tools'
/// Python environment).
public enum WhisperHubCatalogue {
    /// The sizes the catalogue lists. Empty when the catalogue is missing.
    /// The plan of `catalogued`'s files (its `files`, the first published of each `oneOf` group, its
    /// `optional` ones when published) from `source`, installed as `id`.
    public static func plan(_ catalogued: ModelCatalogue.Entry, id: String, source: HubModelSource,
                            tools: ConversionTools?) async throws -> ModelInstaller.Plan {
        // Before anything is downloaded: the conversion must be able to run.
        guard let converter = catalogued.convert else {
            throw ModelInstallError("the catalogue names no converter for \(catalogued.id)")
        }
        guard let tools else {
            throw ModelInstallError("\(id) is converted from CTranslate2 to ONNX on pull by \(converter), "
                + "which this warble cannot find: run it from a Warble checkout (after scripts/python-env.sh) or set "
                + "WARBLE_SOURCE_ROOT to one")
        }
        try tools.check()
        var planned: [(remote: RemoteFile, name: String)] = []
        for name in catalogued.shared.files { planned.append((try await source.describe(name), name)) }
        for group in catalogued.shared.oneOf {
            var found: RemoteFile?
            for name in group where found == nil { found = try await describeIfPublished(name, source) }
            guard let found else {
                throw HubError(.notFound, "\(source.repo) is not laid out as \(catalogued.id): it lacks " + group.joined(separator: " or "))
            }
            planned.append((found, found.path))
        }
        for name in catalogued.shared.optional {
            if let file = try await describeIfPublished(name, source) { planned.append((file, name)) }
        }
        let origin = source.origin
        return ModelInstaller.Plan(id: id, files: planned, convert: { downloaded, output in
            try await tools.run(converter, [downloaded.path, output.path, "--id", id,
                                                                   "--source", origin])
        }, manifest: { directory, _ in
            let url = directory.appendingPathComponent("manifest.json")
            do {
                var manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
                manifest.licence = catalogued.licence
                manifest.converter = converter
                return manifest
            } catch {
                throw ModelInstallError("the converter wrote no readable \(url.path): \(error)")
            }
        })
    }

    /// The file's description, or nil when the repository does not have it.
    private static func describeIfPublished(_ name: String, _ source: HubModelSource) async throws -> RemoteFile? {
        do {
            return try await source.describe(name)
        } catch let error as HubError where error.kind == .notFound {
            return nil
        }
    }
}
