import Foundation

/// What `warble models pull` is asked for: `piper:VOICE[@REVISION]` (a voice of Piper's catalogue,
/// such as `piper:de_DE-thorsten-medium`) or a catalogue id with an optional variant,
/// `kokoro-v1.0[:VARIANT][@REVISION]`, `whisper-SIZE[@REVISION]`.
public struct ModelReference: Sendable, Equatable, CustomStringConvertible {
    public var family: String
    public var name: String
    /// The file variant (Kokoro's `quantized`, `fp16`, ...); nil for the default.
    public var variant: String?
    /// A branch or commit of the family's repository ("main" unless given).
    public var revision: String

    /// What this version pulls, with an example each.
    public static let forms: [(family: String, example: String)] = [
        ("piper", "piper:en_US-lessac-medium"), ("kokoro", "kokoro-v1.0 or kokoro-v1.0:q8f16"),
        ("whisper", "whisper-small or whisper-base.en"),
    ]
    public static var pullable: [String] { forms.map(\.family) }

    public init(family: String, name: String, variant: String? = nil, revision: String = "main") {
        self.family = family
        self.name = name
        self.variant = variant
        self.revision = revision
    }

    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var body = Substring(trimmed)
        var revision = "main"
        if let at = body.lastIndex(of: "@") {
            revision = String(body[body.index(after: at)...])
            body = body[..<at]
        }
        let usage = "write " + Self.forms.map(\.example).joined(separator: ", ")
        guard !revision.isEmpty, !body.isEmpty else { throw HubError(.notFound, "'\(text)' is not a model reference: \(usage)") }
        self.revision = revision
        let lower = body.lowercased()
        if lower.hasPrefix("piper:") {
            family = "piper"
            name = String(body.dropFirst("piper:".count))
            variant = nil
            guard !name.isEmpty else { throw HubError(.notFound, "'\(text)' names no Piper voice: \(usage)") }
            return
        }
        let parts = body.split(separator: ":", maxSplits: 1).map(String.init)
        if parts[0].lowercased() == "kokoro-v1.0" {
            family = "kokoro"
            name = "v1.0"
            variant = parts.count > 1 ? parts[1].lowercased() : nil
            if let variant, !KokoroHubCatalogue.variants.keys.contains(variant) {
                throw HubError(.notFound, "Kokoro v1.0 has no variant '\(variant)'; its variants are "
                    + KokoroHubCatalogue.variants.keys.sorted().joined(separator: ", "))
            }
            return
        }
        if lower.hasPrefix("whisper-"), parts.count == 1 {
            let size = String(lower.dropFirst("whisper-".count))
            guard WhisperHubCatalogue.sizes.contains(size) else {
                throw HubError(.notFound, "there is no Whisper model '\(text)' to pull; sizes: "
                    + WhisperHubCatalogue.sizes.map { "whisper-\($0)" }.joined(separator: ", "))
            }
            family = "whisper"
            name = size
            variant = nil
            return
        }
        if parts.count > 1 || lower.contains("/") {
            throw HubError(.notFound, "this version of warble cannot pull '\(text)' yet; it pulls "
                + Self.forms.map { "\($0.family) (\($0.example))" }.joined(separator: ", "))
        }
        throw HubError(.notFound, "'\(text)' is not a model warble can pull: \(usage) (warble models available lists them)")
    }

    public var description: String {
        (family == "piper" ? "piper:\(name)" : "\(family)-\(name)" + (variant.map { ":\($0)" } ?? ""))
            + (revision == "main" ? "" : "@\(revision)")
    }
}
