import Foundation
import WarbleSpeech

/// Reads a family's `Codable` configuration from the `config` of a model manifest.
public enum ModelConfigurationReader {
    /// `manifest.config` as `Configuration` (an absent config reads as `{}`, so every key takes its
    /// default); a clear error naming the model when it does not fit.
    public static func decode<Configuration: Decodable>(_ type: Configuration.Type, from manifest: ModelManifest) throws -> Configuration {
        do {
            let data = try JSONEncoder().encode(manifest.config ?? .object([:]))
            return try JSONDecoder().decode(Configuration.self, from: data)
        } catch {
            throw ModelError(.badModel, "the manifest of '\(manifest.id)' has a \(manifest.family) config that does not read: \(error)")
        }
    }
}
