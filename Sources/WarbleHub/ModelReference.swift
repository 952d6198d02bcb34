import Foundation
import WarbleModels
import WarbleSpeech

/// What `warble models pull` is asked for: `piper:VOICE` (a voice of Piper's catalogue, such as
/// `piper:de_DE-thorsten-medium`), a catalogue id with an optional variant (`kokoro-v1.0:q8f16`,
/// `whisper-small`, `cosyvoice3`, `chatterbox-turbo:fp16`, `neutts-nano`, `neucodec:int8`), or
/// `hf:OWNER/REPO` with the family it is laid out as; each with an optional `@REVISION`.
public struct ModelReference: Sendable, Equatable, CustomStringConvertible {
    public var family: String
    /// The Piper voice, the Whisper size, or the catalogue id.
    public var name: String
    /// The file variant (Kokoro's `quantized`, `fp16`, ...); nil for the default.
    public var variant: String?
    /// A branch or commit of the repository ("main" unless given).
    public var revision: String
    /// The repository of an `hf:OWNER/REPO` reference.
    public var repo: String?
    /// `pypi:ID`: a model the set-up installs from pinned PyPI wheels.
    public var pypi = false

    public init(family: String, name: String, variant: String? = nil, revision: String = "main", repo: String? = nil) {
        self.family = family
        self.name = name
        self.variant = variant
        self.revision = revision
        self.repo = repo
    }

    /// Parses `text` against the shipped catalogue; `family` is the family of an `hf:` reference.
    public init(parsing text: String, family: String? = nil) throws {
        try self.init(parsing: text, family: family, catalogue: ModelCatalogue.load())
    }

    public init(parsing text: String, family given: String?, catalogue: ModelCatalogue) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var body = Substring(trimmed)
        var revision = "main"
        if let at = body.lastIndex(of: "@") {
            revision = String(body[body.index(after: at)...])
            body = body[..<at]
        }
        let usage = "write " + Self.examples(catalogue).joined(separator: ", ")
        guard !revision.isEmpty, !body.isEmpty else { throw HubError(.notFound, "'\(text)' is not a model reference: \(usage)") }
        self.revision = revision
        let lower = body.lowercased()
        let families = Self.families(catalogue)
        if lower.hasPrefix("hf:") {
            let repo = String(body.dropFirst(3))
            let parts = repo.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) } })
            else { throw HubError(.notFound, "'\(text)' names no repository: write hf:OWNER/NAME[@REVISION]") }
            guard let given else {
                throw HubError(.notFound, "say how \(repo) is laid out with --family (\(families.joined(separator: ", ")))")
            }
            guard let entry = catalogue.entry(family: given.lowercased()) else {
                throw HubError(.notFound, "no family '\(given)'; families: \(families.joined(separator: ", "))")
            }
            family = entry.family
            name = entry.id
            variant = nil
            self.repo = repo
            return
        }
        repo = nil
        if lower.hasPrefix("pypi:") {
            let id = String(body.dropFirst("pypi:".count))
            guard let entry = catalogue.entry(id, pypi: true) else {
                throw HubError(.notFound, "no model '\(id)' comes from PyPI wheels; those that do: "
                    + catalogue.models.filter(\.isPyPI).map { "pypi:\($0.id)" }.joined(separator: ", "))
            }
            family = entry.family
            name = entry.id
            variant = nil
            pypi = true
            return
        }
        let registry = ModelFamilies.builtIn
        for family in registry.pullingFamilies {
            guard case .listed(let prefix, _) = family.pullForm, lower.hasPrefix(prefix) else { continue }
            self.family = family.name
            name = String(body.dropFirst(prefix.count))
            variant = nil
            guard !name.isEmpty else { throw HubError(.notFound, "'\(text)' names no \(family.name.capitalized) voice: \(usage)") }
            return
        }
        let parts = lower.split(separator: ":", maxSplits: 1).map(String.init)
        for family in registry.pullingFamilies {
            guard case .sized(let noun) = family.pullForm, parts.count == 1, let entry = catalogue.entry(family: family.name) else { continue }
            let template = entry.id.components(separatedBy: "{size}")
            guard template.count == 2, parts[0].hasPrefix(template[0]), parts[0].hasSuffix(template[1]),
                  parts[0].count > template[0].count + template[1].count else { continue }
            let size = String(parts[0].dropFirst(template[0].count).dropLast(template[1].count))
            guard entry.sizes.contains(size) else {
                throw HubError(.notFound, "there is no \(noun) model '\(text)' to pull; sizes: "
                    + entry.sizes.map { entry.id.replacingOccurrences(of: "{size}", with: $0) }.joined(separator: ", "))
            }
            self.family = family.name
            name = size
            variant = nil
            return
        }
        if let (entry, size) = catalogue.templated(parts[0]) {
            guard entry.sizes.contains(size) else {
                throw HubError(.notFound, "the catalogue lists no '\(parts[0])' (\(entry.about.isEmpty ? entry.id : entry.about)); "
                    + "`warble models available` lists those it has, and hf:\(entry.repo.replacingOccurrences(of: "{size}", with: size)) "
                    + "--family \(entry.family) pulls a repository it does not list")
            }
            family = entry.family
            name = parts[0]
            variant = parts.count > 1 ? parts[1] : nil
            if let variant { _ = try entry.files(variant: variant) }
            return
        }
        guard let entry = catalogue.entry(parts[0]), !entry.id.contains("{") else {
            throw HubError(.notFound, "'\(text)' is not a model warble can pull: \(usage) (warble models available lists them)")
        }
        family = entry.family
        name = entry.id
        variant = parts.count > 1 ? parts[1] : nil
        if let variant { _ = try entry.files(variant: variant) }
    }

    /// The prefixes of the listed families' references (`PullReferenceForm.listed`), such as `NAME:`.
    public static var listedPrefixes: [String] {
        ModelFamilies.builtIn.pullingFamilies.compactMap { family in
            guard case .listed(let prefix, _) = family.pullForm else { return nil }
            return prefix
        }
    }

    /// The families a repository can be pulled as (`--family`): those of the catalogue's Hub entries, sorted.
    public static func families(_ catalogue: ModelCatalogue) -> [String] {
        Array(Set(catalogue.models.filter { !$0.isPyPI }.map(\.family))).sorted()
    }

    /// One example of each kind of reference.
    static func examples(_ catalogue: ModelCatalogue) -> [String] {
        let families = ModelFamilies.builtIn
        let listed = families.pullingFamilies.compactMap { family -> String? in
            guard case .listed(let prefix, _) = family.pullForm else { return nil }
            return ModelDefaults.current?.pullExamples.first { $0.hasPrefix(prefix) } ?? prefix + "NAME"
        }
        return listed + catalogue.models.compactMap { entry in
            switch families.pullForm(of: entry.family) {
            case .listed: return nil
            case .sized: return entry.sizes.isEmpty ? entry.id
                : entry.id.replacingOccurrences(of: "{size}", with: entry.sizes.first { $0 == "small" } ?? entry.sizes[0])
            case nil: break
            }
            if !entry.sizes.isEmpty { return entry.id.replacingOccurrences(of: "{size}", with: entry.sizes[0]) }
            return entry.id
        } + ["hf:OWNER/REPO --family F"]
    }

    public var description: String {
        let head: String
        if pypi { head = "pypi:\(name)" } else if let repo { head = "hf:\(repo)" } else {
            switch ModelFamilies.builtIn.pullForm(of: family) {
            case .listed(let prefix, _): head = prefix + name
            case .sized: head = ((try? ModelCatalogue.load().entry(family: family)?.id) ?? nil).map { $0.replacingOccurrences(of: "{size}", with: name) } ?? name
            case nil: head = name + (variant.map { ":\($0)" } ?? "")
            }
        }
        return head + (revision == "main" ? "" : "@\(revision)")
    }
}
