import Foundation
import WarbleEngine

/// Whisper in CTranslate2 form from `Systran/faster-whisper-SIZE` (`model.bin`, `config.json`,
/// `tokenizer.json`, `vocabulary.txt`), converted to ONNX on pull by the project's own converter
/// (tools/whisper/convert_ct2.py, run with the tools' Python environment).
public enum WhisperHubCatalogue {
    /// The sizes the catalogue lists: those whose repositories have the layout the converter reads
    /// (large-v3 has vocabulary.json and 128 mel bands instead). Empty when the catalogue is missing.
    public static var sizes: [String] { (try? ModelCatalogue.load().entry(family: "whisper")?.sizes) ?? [] }

    /// The plan of `catalogued`'s files (model.bin, config.json, ...) from `source`, installed as `id`.
    public static func plan(_ catalogued: ModelCatalogue.Entry, id: String, source: HubModelSource,
                            tools: ConversionTools?) async throws -> ModelInstaller.Plan {
        // Before anything is downloaded: the conversion must be able to run.
        guard let tools else {
            throw ModelInstallError("\(id) is converted from CTranslate2 to ONNX on pull by tools/whisper/convert_ct2.py, "
                + "which this warble cannot find: run it from a Warble checkout (after scripts/python-env.sh) or set "
                + "WARBLE_SOURCE_ROOT to one")
        }
        try tools.check()
        var planned: [(remote: RemoteFile, name: String)] = []
        for name in catalogued.shared.files { planned.append((try await source.describe(name), name)) }
        let origin = source.origin
        return ModelInstaller.Plan(id: id, files: planned, convert: { downloaded, output in
            try await tools.run("tools/whisper/convert_ct2.py", [downloaded.path, output.path, "--id", id,
                                                                   "--source", origin])
        }, manifest: { directory, _ in
            let url = directory.appendingPathComponent("manifest.json")
            do {
                var manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
                manifest.licence = catalogued.licence
                manifest.converter = "tools/whisper/convert_ct2.py"
                return manifest
            } catch {
                throw ModelInstallError("the converter wrote no readable \(url.path): \(error)")
            }
        })
    }
}
