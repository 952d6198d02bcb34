import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// A kind of model the engine can run: a name (the `family` of a manifest), a configuration read
/// from the manifest, the abilities it offers, and a loader. Each family lives in its own folder and
/// is registered once, in `ModelFamilies.builtIn`. A family may hold any number of ONNX sessions.
public protocol ModelFamily: Sendable {
    associatedtype Configuration: Decodable & Sendable
    /// The manifest's `family`.
    var name: String { get }
    /// What its models can do (known before loading, so the engine can list voices and models).
    var abilities: Set<Ability> { get }
    /// Loads an installed model: opens its sessions and returns the abilities it offers.
    func load(_ model: ModelFiles, configuration: Configuration, context: FamilyContext) throws -> LoadedModel
    /// A manifest for a model file given by path outside the store (`warble say --voice ./x.onnx`), when
    /// the file is one of this family's; nil otherwise. The default adopts nothing.
    func adopt(file: URL) throws -> ModelFiles?
    /// Whether its recognisers have a translate task (speech in any language they know → English text).
    /// The default: no (their text is translated by the translation models).
    var translatesSpeech: Bool { get }
}

extension ModelFamily {
    public func adopt(file: URL) throws -> ModelFiles? { nil }

    public var translatesSpeech: Bool { false }

    /// Reads the configuration from the manifest, then loads.
    func load(_ model: ModelFiles, context: FamilyContext) throws -> LoadedModel {
        let configuration = try ModelConfigurationReader.decode(Configuration.self, from: model.manifest)
        return try load(model, configuration: configuration, context: context)
    }
}

/// An installed model's files, as a family loads them.
public struct ModelFiles: Sendable, Equatable {
    public let manifest: ModelManifest
    public let directory: URL

    public init(manifest: ModelManifest, directory: URL) {
        self.manifest = manifest
        self.directory = directory
    }
}

/// What every family's loader gets from the engine.
public struct FamilyContext: Sendable {
    /// Text to phonemes, for the families that speak from phonemes (nil: none given).
    public var phonemizer: (any Phonemizer)?
    public var sessionOptions: SessionOptions
    /// The store's installed models, for a family that speaks through another (NeuTTS through NeuCodec).
    public var installed: [ModelFiles]
    /// Whether the engine may use cores beyond the sessions' threads (a command with a budget of two
    /// cores or more): a family may then finish loading in the background while it already speaks.
    public var sparesCores: Bool

    public init(phonemizer: (any Phonemizer)?, sessionOptions: SessionOptions = .init(), installed: [ModelFiles] = [],
                sparesCores: Bool = false) {
        self.phonemizer = phonemizer
        self.sessionOptions = sessionOptions
        self.installed = installed
        self.sparesCores = sparesCores
    }

    /// The phonemizer, or a clear error naming the family that needs one.
    public func requirePhonemizer(for family: String) throws -> any Phonemizer {
        guard let phonemizer else {
            throw ModelError(.badModel, "\(family) models need a phonemizer (espeak-ng, from WarblePhonemes) and none was given")
        }
        return phonemizer
    }
}

/// A loaded model: the abilities it offers, each shared by every request (immutable, `Sendable`).
public struct LoadedModel: Sendable {
    public var renderer: (any UtteranceRenderer)?
    public var recognizer: (any SpeechRecognizer)?
    public var voiceActivityDetector: (any VoiceActivityDetector)?
    public var voiceEncoder: (any VoiceEncoder)?
    public var translator: (any TextTranslator)?
    public var speakerEmbedder: (any SpeakerEmbedding)?

    public init(renderer: (any UtteranceRenderer)? = nil, recognizer: (any SpeechRecognizer)? = nil,
                voiceActivityDetector: (any VoiceActivityDetector)? = nil, voiceEncoder: (any VoiceEncoder)? = nil,
                translator: (any TextTranslator)? = nil, speakerEmbedder: (any SpeakerEmbedding)? = nil) {
        self.renderer = renderer
        self.recognizer = recognizer
        self.voiceActivityDetector = voiceActivityDetector
        self.voiceEncoder = voiceEncoder
        self.translator = translator
        self.speakerEmbedder = speakerEmbedder
    }
}
