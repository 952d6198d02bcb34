import Foundation

/// What `warble models pull` is asked for: `FAMILY:NAME[@REVISION]`, such as `piper:de_DE-thorsten-medium`.
public struct ModelReference: Sendable, Equatable, CustomStringConvertible {
    public var family: String
    public var name: String
    /// A branch or commit of the family's repository ("main" unless given).
    public var revision: String

    /// The families this version can pull, with an example each.
    public static let pullable: [(family: String, example: String)] = [("piper", "piper:en_US-lessac-medium")]

    public init(family: String, name: String, revision: String = "main") {
        self.family = family
        self.name = name
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
        guard let colon = body.firstIndex(of: ":"), !body[..<colon].isEmpty, !body[body.index(after: colon)...].isEmpty,
              !revision.isEmpty
        else {
            throw HubError(.notFound, "'\(text)' is not a model reference: write FAMILY:NAME[@REVISION], such as "
                + Self.pullable.map(\.example).joined(separator: ", "))
        }
        family = body[..<colon].lowercased()
        name = String(body[body.index(after: colon)...])
        self.revision = revision
        guard Self.pullable.contains(where: { $0.family == family }) else {
            throw HubError(.notFound, "this version of warble cannot pull '\(family)' models yet; it pulls "
                + Self.pullable.map { "\($0.family) (\($0.example))" }.joined(separator: ", "))
        }
    }

    public var description: String { "\(family):\(name)" + (revision == "main" ? "" : "@\(revision)") }
}
