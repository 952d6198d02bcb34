import Foundation
import WarbleEngine

/// A Piper voice pulled by repository (`hf:OWNER/REPO --family piper`): the repository's one
/// `NAME.onnx` with `NAME.onnx.json` beside it (and a `MODEL_CARD` there, when present). Installed
/// as `piper-OWNER--REPO`, its voice named NAME, split on pull like a catalogue voice.
enum HubRepositoryVoice {
    static func plan(repo: String, family: String, listedPrefix: String, source: HubModelSource,
                     tools: ConversionTools?) async throws -> ModelInstaller.Plan {
        let tree = try await source.client.tree(repo: repo, revision: source.commit)
        let paths = Set(tree.filter { $0.type == "file" }.map(\.path))
        let voices = paths.filter { $0.hasSuffix(".onnx") && paths.contains($0 + ".json") }.sorted()
        guard voices.count == 1, let model = voices.first else {
            throw HubError(.notFound, voices.isEmpty
                ? "\(repo) holds no Piper voice (NAME.onnx with NAME.onnx.json beside it)"
                : "\(repo) holds \(voices.count) Piper voices (\(voices.joined(separator: ", "))); pull a repository with one, "
                    + "or a catalogue voice with \(listedPrefix)VOICE")
        }
        let folder = (model as NSString).deletingLastPathComponent
        let card = folder.isEmpty ? "MODEL_CARD" : "\(folder)/MODEL_CARD"
        var files: [(remote: RemoteFile, name: String)] = [
            (try await source.describe(model), "model.onnx"), (try await source.describe(model + ".json"), "config.json"),
        ]
        if paths.contains(card) { files.append((try await source.describe(card), "MODEL_CARD")) }
        let key = ((model as NSString).lastPathComponent as NSString).deletingPathExtension
        return PiperVoiceCatalogue.piperPlan(id: HubPull.hubID(family: family, repo: repo), key: key, language: nil,
                                             files: files, tools: tools)
    }
}
