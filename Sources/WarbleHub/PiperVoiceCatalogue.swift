import Foundation
import WarbleEngine
import WarbleModels

/// Piper's catalogue: `voices.json` of `rhasspy/piper-voices`, read at pull time (new voices appear
/// there) and kept in `$WARBLE_HOME/cache/hub/rhasspy--piper-voices/voices.json` for listing offline.
public struct PiperVoiceCatalogue: Sendable {
    /// The family pulled from this listing (`PullReferenceForm.listed`) and how its voices are referred to and installed.
    static let listed = PullForms.listed.first ?? PullForms.Listed(family: "", prefix: "", installedPrefix: "")
    /// The listing's repository: the catalogue's Hub entry of that family.
    public static let repo = (try? ModelCatalogue.load())?.models.first { $0.family == listed.family && !$0.isPyPI }?.repo ?? ""
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
        store.home.appendingPathComponent("cache/hub/" + repo.replacingOccurrences(of: "/", with: "--") + "/" + path)
    }

    /// The catalogue at `revision` from the Hub (cached for offline use), or the cached copy when
    /// the Hub cannot be asked (offline, or unreachable) and `allowCached`.
    public static func load(client: HubClient, store: ModelStore, revision: String = "main",
                            allowCached: Bool = false) async throws -> PiperVoiceCatalogue {
        let cache = cacheURL(store: store)
        if client.environment.offline, allowCached, let data = FileManager.default.contents(atPath: cache.path) {
            return try PiperVoiceCatalogue(data: data, commit: nil)
        }
        let data: Data, metadata: HubClient.FileMetadata
        do {
            (data, metadata) = try await client.contents(repo: repo, revision: revision, path: path)
        } catch let error as HubError where error.kind == .network && allowCached {
            // The Hub cannot be reached: the cached copy, when there is one, lists what it knew.
            guard let cached = FileManager.default.contents(atPath: cache.path) else { throw error }
            return try PiperVoiceCatalogue(data: cached, commit: nil)
        }
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
            + (near.isEmpty ? "; see warble models available --family \(Self.listed.family)" : "; did you mean "
                + near.prefix(8).joined(separator: ", ") + (near.count > 8 ? " (\(near.count) in all)" : "") + "?"))
    }

    /// The install plan of `voice` from `source` (pinned to the catalogue's commit): its model, its
    /// configuration and model card, checked against the catalogue's sizes and md5 digests and the
    /// Hub's sha256. With the project's tools the voice is split at its decoder input on pull, as
    /// the set-up splits its default voice (tools/models/split_piper.py: streaming inside an
    /// utterance); without them, or when a graph cannot be split, it runs whole and the manifest's
    /// notes say why. A multi-speaker voice offers each speaker as a voice of its own, `KEY:SPEAKER`.
    public static func plan(_ voice: Voice, source: HubModelSource, tools: ConversionTools?) async throws -> ModelInstaller.Plan {
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
        return piperPlan(id: listed.installedPrefix + voice.key, key: voice.key, language: voice.languageTag, files: files, tools: tools)
    }

    /// The plan of a Piper voice whose files are `model.onnx`, `config.json` and maybe `MODEL_CARD`
    /// (from the catalogue, or from any repository laid out as one voice).
    static func piperPlan(id: String, key: String, language given: String?, files: [(remote: RemoteFile, name: String)],
                          tools: ConversionTools?) -> ModelInstaller.Plan {
        ModelInstaller.Plan(id: id, files: files, optional: ["MODEL_CARD"], convert: { downloaded, output in
            try await PiperSplitting.convert(downloaded, into: output, tools: tools)
        }, manifest: { directory, _ in
            let configuration: PiperConfiguration
            do {
                configuration = try JSONDecoder().decode(PiperConfiguration.self,
                                                         from: Data(contentsOf: directory.appendingPathComponent("config.json")))
            } catch {
                throw HubError(.unexpected, "the configuration of \(key) is not a Piper voice configuration: \(error)")
            }
            let card = (try? String(contentsOf: directory.appendingPathComponent("MODEL_CARD"), encoding: .utf8)) ?? ""
            let language = given ?? languageTag(espeak: configuration.espeak.voice)
            let (split, notes) = try PiperSplitting.outcome(in: directory)
            let speakers = Self.speakers(configuration)
            var voices: [ModelManifest.Voice] = [.init(id: key, language: language, displayName: key)]
            var voiceSpeakers: [String: String] = [:]
            for speaker in speakers {
                voices.append(.init(id: "\(key):\(speaker)", language: language, displayName: "\(key) speaker \(speaker)"))
                voiceSpeakers["\(key):\(speaker)"] = speaker
            }
            let names = ["model.onnx", "config.json", "MODEL_CARD"] + (split.map { [$0.encoder, $0.decoder] } ?? [])
            let entries = try names.filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
                .map { try ModelManifest.File(hashing: directory.appendingPathComponent($0), as: $0) }
            let files = PiperModelConfiguration(config: "config.json", model: "model.onnx", split: split,
                                                voiceSpeakers: voiceSpeakers.isEmpty ? nil : voiceSpeakers)
            var manifest = ModelManifest(
                id: id, family: listed.family, displayName: "Piper \(key)", licence: licence(card: card),
                source: "", sampleRate: configuration.audio.sampleRate, languages: [language],
                voices: voices, files: entries,
                config: try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(files)))
            manifest.converter = split == nil ? nil : PiperSplitting.script
            manifest.notes = notes.isEmpty ? nil : notes
            return manifest
        })
    }

    /// "en-us" → "en-US", "de" → "de": a voice's language from its espeak-ng voice.
    static func languageTag(espeak voice: String) -> String {
        let parts = voice.split(separator: "-", maxSplits: 1).map(String.init)
        return parts.count == 2 && parts[1].count == 2 ? "\(parts[0])-\(parts[1].uppercased())" : voice
    }

    /// A multi-speaker voice's speakers by name (by number when it names none); empty for one speaker.
    static func speakers(_ configuration: PiperConfiguration) -> [String] {
        if let map = configuration.speakerIDMap, map.count > 1 { return map.sorted { $0.value < $1.value }.map(\.key) }
        let count = configuration.numSpeakers ?? 1
        return count > 1 ? (0..<count).map(String.init) : []
    }

    /// Piper's code and voices are MIT; each voice's training data has its own licence, which its
    /// MODEL_CARD gives on a "License:" line.
    static func licence(card: String) -> String {
        let line = card.split(whereSeparator: \.isNewline).first { $0.lowercased().contains("license:") }
        let dataset = line.flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        return "MIT (Piper voice, \(repo)); training data: " + (dataset ?? "see the voice's MODEL_CARD")
    }
}
