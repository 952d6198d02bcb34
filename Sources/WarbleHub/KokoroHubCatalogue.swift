import Foundation
import WarbleEngine
import WarbleModels

/// Kokoro v1.0 as `onnx-community/Kokoro-82M-v1.0-ONNX` lays it out (its variants and licence from
/// the catalogue): `onnx/model{suffix}.onnx` (input
/// `input_ids`), `tokenizer.json` (the symbol vocabulary in `model.vocab`), and `voices/NAME.bin`, raw
/// little-endian float32 [510, 256] style tables. A voice's prefix gives its language and gender.
public enum KokoroHubCatalogue {
    /// Voice prefix letter → (language tag, espeak-ng voice).
    static let languages: [Character: (tag: String, espeak: String)] = [
        "a": ("en-US", "en-us"), "b": ("en-GB", "en-gb"), "e": ("es", "es"), "f": ("fr", "fr-fr"), "h": ("hi", "hi"),
        "i": ("it", "it"), "j": ("ja", "ja"), "p": ("pt-BR", "pt-br"), "z": ("zh", "cmn"),
    ]
    static let styleBytes: Int64 = 510 * 256 * 4


    /// The plan of `variant` from the repository's file list. With the project's tools the model's
    /// Snake activations and AdaIN blocks are fused into Warble's operators on pull
    /// (tools/models/fuse_kokoro.py, as the set-up does for its int8 model), written beside the
    /// published graph as `….warble.onnx`; where nothing fuses, or without the tools, the published
    /// graph runs and the manifest's notes say why.
    public static func plan(_ catalogued: ModelCatalogue.Entry, variant: String?, repo: String, files: [HubClient.TreeEntry],
                            tools: ConversionTools?, id: String) throws -> ModelInstaller.Plan {
        let variant = variant ?? catalogued.defaultVariant ?? "default"
        let fuser = catalogued.fuse ?? ""
        guard let modelPath = try catalogued.files(variant: variant).files.first(where: { $0.hasSuffix(".onnx") }) else {
            throw HubError(.unexpected, "the catalogue names no .onnx file for \(catalogued.id):\(variant)")
        }
        let byPath = Dictionary(files.filter { $0.type == "file" }.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        guard let model = byPath[modelPath] else {
            throw HubError(.notFound, "\(repo) has no \(modelPath) (variant \(variant))")
        }
        guard let tokenizer = byPath["tokenizer.json"] else { throw HubError(.notFound, "\(repo) has no tokenizer.json") }
        let voiceFiles = byPath.values.filter { $0.path.hasPrefix("voices/") && $0.path.hasSuffix(".bin") }.sorted { $0.path < $1.path }
        var voices: [(name: String, entry: HubClient.TreeEntry)] = []
        for entry in voiceFiles {
            let name = String(entry.path.dropFirst("voices/".count).dropLast(".bin".count))
            guard entry.remoteFile.bytes == styleBytes else {
                throw HubError(.integrity, "\(repo)/\(entry.path) has \(entry.remoteFile.bytes) bytes; a Kokoro v1.0 style "
                    + "table has \(styleBytes) (510 × 256 float32)")
            }
            guard name.count > 3, let letter = name.first, languages[letter] != nil, name.dropFirst().first == "f" || name.dropFirst().first == "m"
            else { continue }  // not a voice name Kokoro's convention explains
            voices.append((name, entry))
        }
        guard !voices.isEmpty else { throw HubError(.notFound, "\(repo) lists no voices/*.bin") }
        let fused = String(modelPath.dropLast(".onnx".count)) + ".warble.onnx"
        let plannedFiles = [(model.remoteFile, modelPath), (tokenizer.remoteFile, "tokenizer.json")]
            + voices.map { ($0.entry.remoteFile, $0.entry.path) }
        let names = voices.map(\.name)
        return ModelInstaller.Plan(id: id, files: plannedFiles, convert: { downloaded, output in
            try ConversionSteps.carryOver(downloaded, into: output)
            var failure: (any Error)?
            if let tools, !fuser.isEmpty {
                do {
                    let counts = try JSONDecoder().decode([String: Int].self, from: try await tools.run(fuser, [
                        output.appendingPathComponent(modelPath).path, output.appendingPathComponent(fused).path]))
                    if counts.values.reduce(0, +) > 0 { return }
                    try ConversionSteps.leave("runs as published, without Warble's fused operators: \(fuser) found no "
                        + "Snake activation or AdaIN block it knows in \(modelPath)", in: output)
                    return
                } catch {
                    failure = error
                }
            }
            try ConversionSteps.leave(ConversionSteps.note("runs as published, without Warble's fused operators",
                                                           script: fuser, error: failure), in: output)
        }, manifest: { directory, downloadedEntries in
            let notes = ConversionSteps.takeNotes(in: directory)
            let isFused = FileManager.default.fileExists(atPath: directory.appendingPathComponent(fused).path)
            let entries = try downloadedEntries + (isFused ? [ModelManifest.File(hashing: directory.appendingPathComponent(fused), as: fused)] : [])
            var voiceLanguages: [String: String] = [:]
            var described: [ModelManifest.Voice] = []
            for name in names {
                let language = languages[name.first!]!
                if language.espeak != "en-us" { voiceLanguages[name] = language.espeak }
                let gender = name.dropFirst().first == "f" ? "female" : "male"
                described.append(.init(id: "\(catalogued.family)-\(name)", language: language.tag, gender: gender, displayName: name))
            }
            let config = KokoroConfiguration(
                model: isFused ? fused : modelPath, vocab: "tokenizer.json", voices: Dictionary(uniqueKeysWithValues: names.map { ($0, "voices/\($0).bin") }),
                warbleOperators: isFused,
                espeakVoice: "en-us", defaultVoice: names.contains("af_heart") ? "af_heart" : names.first { $0.hasPrefix("a") } ?? names[0],
                voiceLanguages: voiceLanguages)
            var manifest = ModelManifest(
                id: id, family: catalogued.family, displayName: "Kokoro 82M v1.0 (\(variant))",
                licence: catalogued.licence,
                source: "", sampleRate: 24000, languages: Array(Set(described.map(\.language))).sorted(), voices: described,
                files: entries, config: try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(config)))
            manifest.converter = isFused ? fuser : nil
            manifest.notes = notes.isEmpty ? nil : notes
            return manifest
        })
    }
}
