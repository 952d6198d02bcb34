import Foundation
import WarbleEngine
import WarbleModels

/// Piper's catalogue: `voices.json` of `rhasspy/piper-voices`, read at pull time (new voices appear
/// there) and kept in `$WARBLE_HOME/cache/hub/rhasspy--piper-voices/voices.json` for listing offline.
public struct PiperVoiceCatalogue: Sendable {
    public static let repo = "rhasspy/piper-voices"
    public static let path = "voices.json"

    public struct Voice: Sendable, Decodable, Equatable {
        public struct Language: Sendable, Decodable, Equatable {
            public var code: String
            public var family: String?
            public var nameEnglish: String?
            public var countryEnglish: String?

            enum CodingKeys: String, CodingKey {
                case code, family
                case nameEnglish = "name_english"
                case countryEnglish = "country_english"
            }
        }

        public struct File: Sendable, Decodable, Equatable {
            public var sizeBytes: Int64
            public var md5Digest: String?

            enum CodingKeys: String, CodingKey {
                case sizeBytes = "size_bytes"
                case md5Digest = "md5_digest"
            }
        }

        public var key: String
        public var name: String?
        public var language: Language
        public var quality: String?
        public var numSpeakers: Int?
        public var speakerIDMap: [String: Int]?
        public var files: [String: File]

        enum CodingKeys: String, CodingKey {
            case key, name, language, quality, files
            case numSpeakers = "num_speakers"
            case speakerIDMap = "speaker_id_map"
        }

        /// The model and its configuration (`….onnx`, `….onnx.json`), and the model card when listed.
        public var modelPath: String? { files.keys.sorted().first { $0.hasSuffix(".onnx") } }
        public var configPath: String? { files.keys.sorted().first { $0.hasSuffix(".onnx.json") } }
        public var cardPath: String? { files.keys.sorted().first { $0.hasSuffix("MODEL_CARD") } }
        /// BCP-47 style ("en-US").
        public var languageTag: String { language.code.replacingOccurrences(of: "_", with: "-") }
        public var totalBytes: Int64 { files.values.reduce(0) { $0 + $1.sizeBytes } }
    }

    public var voices: [String: Voice]
    /// The commit the catalogue was read at (nil for a cached copy whose commit is unknown).
    public var commit: String?

    public init(data: Data, commit: String?) throws {
        do {
            voices = try JSONDecoder().decode([String: Voice].self, from: data)
        } catch {
            throw HubError(.unexpected, "\(Self.repo)/\(Self.path) is not a Piper voice catalogue: \(error)")
        }
        self.commit = commit
    }

    /// Where the last catalogue read is kept.
    public static func cacheURL(store: ModelStore) -> URL {
        store.home.appendingPathComponent("cache/hub/rhasspy--piper-voices/voices.json")
    }

    /// The catalogue at `revision` from the Hub (cached for offline use), or the cached copy when
    /// the Hub cannot be asked (offline) and `allowCached`.
    public static func load(client: HubClient, store: ModelStore, revision: String = "main",
                            allowCached: Bool = false) async throws -> PiperVoiceCatalogue {
        let cache = cacheURL(store: store)
        if client.environment.offline, allowCached, let data = FileManager.default.contents(atPath: cache.path) {
            return try PiperVoiceCatalogue(data: data, commit: nil)
        }
        let (data, metadata) = try await client.contents(repo: repo, revision: revision, path: path)
        let catalogue = try PiperVoiceCatalogue(data: data, commit: metadata.commit)
        try? FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: cache, options: .atomic)
        return catalogue
    }

    /// The voice `key`, or an error that names the closest keys.
    public func voice(_ key: String) throws -> Voice {
        if let voice = voices[key] { return voice }
        let locale = key.split(separator: "-").first.map(String.init) ?? key
        let near = voices.keys.filter { $0.hasPrefix(locale) || $0.localizedCaseInsensitiveContains(key) }.sorted()
        throw HubError(.notFound, "\(Self.repo) has no voice '\(key)'"
            + (near.isEmpty ? "; see warble models available --family piper" : "; did you mean "
                + near.prefix(8).joined(separator: ", ") + (near.count > 8 ? " (\(near.count) in all)" : "") + "?"))
    }

    /// The install plan of `voice` from `source` (pinned to the catalogue's commit): its model, its
    /// configuration and model card, checked against the catalogue's sizes and md5 digests and the
    /// Hub's sha256. The voice runs whole (the encoder/decoder split of the set-up is not made).
    public static func plan(_ voice: Voice, source: HubModelSource) async throws -> ModelInstaller.Plan {
        guard let model = voice.modelPath, let config = voice.configPath else {
            throw HubError(.unexpected, "\(repo): voice \(voice.key) lists no .onnx and .onnx.json files")
        }
        var files: [(remote: RemoteFile, name: String)] = []
        for (path, name) in [(model, "model.onnx"), (config, "config.json")] + (voice.cardPath.map { [($0, "MODEL_CARD")] } ?? []) {
            let listed = voice.files[path]!
            var remote = try await source.describe(path)
            guard remote.bytes == listed.sizeBytes else {
                throw HubError(.integrity, "\(repo)/\(path) has \(remote.bytes) bytes on the Hub, voices.json says \(listed.sizeBytes)")
            }
            remote.md5 = listed.md5Digest?.lowercased()
            files.append((remote, name))
        }
        let key = voice.key
        return ModelInstaller.Plan(id: "piper-\(key)", files: files, optional: ["MODEL_CARD"]) { directory, entries in
            let configURL = directory.appendingPathComponent("config.json")
            let configuration: PiperConfiguration
            do {
                configuration = try JSONDecoder().decode(PiperConfiguration.self, from: Data(contentsOf: configURL))
            } catch {
                throw HubError(.unexpected, "\(config) is not a Piper voice configuration: \(error)")
            }
            let card = (try? String(contentsOf: directory.appendingPathComponent("MODEL_CARD"), encoding: .utf8)) ?? ""
            let files = PiperModelConfiguration(config: "config.json", model: "model.onnx")
            return ModelManifest(
                id: "piper-\(key)", family: "piper", displayName: "Piper \(key)", licence: licence(card: card),
                source: "", sampleRate: configuration.audio.sampleRate, languages: [voice.languageTag],
                voices: [.init(id: key, language: voice.languageTag, displayName: key)], files: entries,
                config: try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(files)))
        }
    }

    /// Piper's code and voices are MIT; each voice's training data has its own licence, which its
    /// MODEL_CARD gives on a "License:" line.
    static func licence(card: String) -> String {
        let line = card.split(whereSeparator: \.isNewline).first { $0.lowercased().contains("license:") }
        let dataset = line.flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        return "MIT (Piper voice, rhasspy/piper-voices); training data: " + (dataset ?? "see the voice's MODEL_CARD")
    }
}
