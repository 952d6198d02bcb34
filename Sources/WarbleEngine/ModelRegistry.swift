import Foundation
import ONNXRuntime
import WarbleModels
import WarbleText

/// Model families by the `family` of their manifest: each maps an installed model to a loaded
/// renderer. Adding a family is one entry here.
public struct ModelRegistry: Sendable {
    public typealias Loader = @Sendable (InstalledModel, any Phonemizer, SessionOptions) throws -> any UtteranceRenderer

    private var loaders: [String: Loader]

    public static let builtIn = ModelRegistry(loaders: [
        "piper": { model, phonemizer, options in
            try PiperVoice(directory: model.directory, manifest: model.manifest, phonemizer: phonemizer, sessionOptions: options)
        },
        "kokoro": { model, phonemizer, options in
            try KokoroModel(directory: model.directory, manifest: model.manifest, phonemizer: phonemizer, sessionOptions: options)
        },
    ])

    public init(loaders: [String: Loader]) {
        self.loaders = loaders
    }

    public mutating func register(family: String, loader: @escaping Loader) {
        loaders[family] = loader
    }

    /// Whether models of `family` can speak.
    public func speaks(_ family: String) -> Bool { loaders[family] != nil }

    func load(_ model: InstalledModel, phonemizer: any Phonemizer, options: SessionOptions) throws -> any UtteranceRenderer {
        guard let loader = loaders[model.manifest.family] else {
            throw ModelError(.badModel, "no text-to-speech pipeline for model family '\(model.manifest.family)'")
        }
        return try loader(model, phonemizer, options)
    }
}
