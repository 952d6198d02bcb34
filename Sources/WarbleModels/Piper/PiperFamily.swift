import Foundation
import WarbleSpeech

/// Piper (VITS) voices: text → espeak-ng phonemes → one ONNX model, or the encoder/decoder split the
/// set-up makes for streaming inside an utterance.
public struct PiperFamily: ModelFamily {
    public init() {}

    public let name = "piper"
    public let abilities: Set<Ability> = [.synthesis]

    public func load(_ model: ModelFiles, configuration: PiperModelConfiguration, context: FamilyContext) throws -> LoadedModel {
        LoadedModel(renderer: try PiperVoice(directory: model.directory, manifest: model.manifest, files: configuration,
                                             phonemizer: try context.requirePhonemizer(for: name),
                                             sessionOptions: context.sessionOptions,
                                             fastStart: context.sparesCores && PiperEncoderSlot.fastStartByDefault,
                                             // A command's text: prime late (a paragraph never pays it); a server, at once,
                                             // so that its idle memory already holds the arena it keeps.
                                             primeAfterWindows: context.sparesCores ? 16 : 1))
    }

    /// A voice as Piper ships it: `NAME.onnx` with `NAME.onnx.json` beside it. Its model id is
    /// `file:PATH`, its one voice the path itself; it runs whole (no split).
    public func adopt(file: URL) throws -> ModelFiles? {
        guard file.pathExtension == "onnx" else { return nil }
        let configURL = file.appendingPathExtension("json")
        guard let data = FileManager.default.contents(atPath: configURL.path) else {
            throw ModelError(.badModel, "\(file.path) has no \(configURL.lastPathComponent) beside it: a Piper voice comes "
                + "as NAME.onnx and NAME.onnx.json")
        }
        let configuration: PiperConfiguration
        do { configuration = try JSONDecoder().decode(PiperConfiguration.self, from: data) } catch {
            throw ModelError(.badModel, "\(configURL.path) is not a Piper voice configuration: \(error)")
        }
        let language = configuration.espeak.voice
        let files = PiperModelConfiguration(config: configURL.lastPathComponent, model: file.lastPathComponent)
        let manifest = ModelManifest(
            id: "file:" + file.path, family: name, displayName: file.deletingPathExtension().lastPathComponent,
            licence: "unknown (a file given by path)", source: file.path, sampleRate: configuration.audio.sampleRate,
            languages: [language], voices: [.init(id: file.path, language: language,
                                                  displayName: file.deletingPathExtension().lastPathComponent)],
            files: [], config: try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(files)))
        return ModelFiles(manifest: manifest, directory: file.deletingLastPathComponent())
    }
}
