import Foundation
import WarbleSpeech

/// The model families the engine knows, by manifest `family`. Adding a family is its folder plus one
/// line in `builtIn`.
public struct ModelFamilies: Sendable {
    public static let builtIn = ModelFamilies([
        PiperFamily(),
        KokoroFamily(),
        WhisperFamily(),
        SenseVoiceFamily(),
        ParakeetFamily(),
        SileroVADFamily(),
        SpeakerEmbedderFamily(),
        CosyVoice3Family(),
        ChatterboxFamily(),
        NeuTTSFamily(),
        MarianFamily(),
    ])

    private var families: [String: any ModelFamily]

    public init(_ families: [any ModelFamily]) {
        self.families = Dictionary(families.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Adds (or replaces) a family.
    public mutating func register(_ family: any ModelFamily) {
        families[family.name] = family
    }

    /// The family called `name`, if known.
    public func family(named name: String) -> (any ModelFamily)? { families[name] }

    /// The abilities of models of family `name` (none when the family is unknown).
    public func abilities(of name: String) -> Set<Ability> { families[name]?.abilities ?? [] }

    /// Every family name, sorted.
    public var names: [String] { families.keys.sorted() }

    /// The model files of `file` as the first family that recognises it adopts them.
    public func adopt(file: URL) throws -> ModelFiles? {
        for name in names { if let files = try families[name]?.adopt(file: file) { return files } }
        return nil
    }

    /// Loads `model` with its family; a clear error when the family is unknown.
    public func load(_ model: ModelFiles, context: FamilyContext) throws -> LoadedModel {
        guard let family = families[model.manifest.family] else {
            throw ModelError(.badModel, "model '\(model.manifest.id)' is of family '\(model.manifest.family)', which this "
                + "Warble does not know (known: \(names.joined(separator: ", ")))")
        }
        return try family.load(model, context: context)
    }

    /// `warble models check`: loads `model` with every graph its family opens compared with what the family
    /// expects, differences recorded instead of refused (the model is dropped, never run).
    public func check(_ model: ModelFiles, context: FamilyContext) -> ModelCheck {
        let audit = GraphAudit()
        var failure: String?
        do {
            _ = try audit.observing { try load(model, context: context) }
        } catch {
            failure = "\(error)"
        }
        return ModelCheck(model: model.manifest.id, family: model.manifest.family, graphs: audit.graphs, loadError: failure)
    }
}
