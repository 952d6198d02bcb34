import WarbleModels
import WarbleSpeech

/// The reference forms `warble models pull` takes, one per Hub entry of the catalogue (its `about` beside it), for help
/// texts that must not name families: every form comes from the catalogue and the families' pull hooks.
public enum PullForms {
    /// (form, what it pulls) for each Hub entry of `catalogue`, in catalogue order.
    public static func lines(_ catalogue: ModelCatalogue) -> [(form: String, about: String)] {
        let families = ModelFamilies.builtIn
        let examples = ModelDefaults.current?.pullExamples ?? []
        return catalogue.models.filter { !$0.isPyPI }.map { entry in
            var about = entry.about
            let form: String
            switch families.pullForm(of: entry.family) {
            case .listed(let prefix, _):
                form = prefix + "VOICE"
                let shown = examples.filter { $0.hasPrefix(prefix) }
                if !shown.isEmpty { about += " (" + shown.joined(separator: ", ") + ")" }
            case .sized, nil:
                if !entry.sizes.isEmpty {
                    form = entry.id.replacingOccurrences(of: "{size}", with: "SIZE")
                    about += "; SIZE: " + entry.sizes.joined(separator: ", ")
                } else if !entry.variants.isEmpty {
                    form = entry.id + "[:VARIANT]"
                    let others = entry.variants.keys.sorted().filter { $0 != entry.defaultVariant }
                    about += "; variants: " + (entry.defaultVariant.map { "\($0) (the default)" + (others.isEmpty ? "" : ", ") } ?? "")
                        + others.joined(separator: ", ")
                } else {
                    form = entry.id
                }
            }
            return (form, about)
        }
    }

    /// The PyPI references (`pypi:ID`) of `catalogue`.
    public static func pypi(_ catalogue: ModelCatalogue) -> [String] {
        catalogue.models.filter(\.isPyPI).map { "pypi:\($0.id)" }
    }
}

extension PullForms {
    /// A family whose models are the voices of its own listing (`PullReferenceForm.listed`).
    public struct Listed: Sendable {
        public let family: String
        /// `PREFIX VOICE` pulls VOICE, installed as `installedPrefix VOICE`.
        public let prefix: String
        public let installedPrefix: String
    }

    /// The families pulled from their own listing.
    public static var listed: [Listed] {
        ModelFamilies.builtIn.pullingFamilies.compactMap { family in
            guard case .listed(let prefix, let installedPrefix) = family.pullForm else { return nil }
            return Listed(family: family.name, prefix: prefix, installedPrefix: installedPrefix)
        }
    }
}
