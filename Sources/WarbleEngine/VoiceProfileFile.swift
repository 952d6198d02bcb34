import Foundation
import WarbleSpeech

/// The on-disk form of a `VoiceProfile`: one JSON file with a format name, a version and the SHA-256
/// of the profile's canonical encoding (sorted keys, dates in seconds), so that a damaged or edited
/// file is refused instead of speaking with wrong conditioning.
///
/// ```json
/// {"format": "warble-voice", "version": 1, "sha256": "…", "profile": {…}}
/// ```
public enum VoiceProfileFile {
    public static let format = "warble-voice"
    /// The version this Warble writes; it reads this one only (a newer file asks for a newer Warble).
    public static let version = 1
    /// The largest profile file read (a style table is ~0.5 MB as JSON; encoder outputs more).
    public static let maximumBytes = 64 << 20

    private struct Envelope: Codable {
        var format: String
        var version: Int
        var sha256: String
        var profile: VoiceProfile
    }

    /// The file's bytes for `profile`.
    public static func encode(_ profile: VoiceProfile) throws -> Data {
        let envelope = Envelope(format: format, version: version, sha256: try checksum(profile), profile: profile)
        return try encoder(pretty: true).encode(envelope)
    }

    /// The profile in `data`; a clear error when it is not a profile, of another version, or damaged.
    public static func decode(_ data: Data, source: String) throws -> VoiceProfile {
        guard data.count <= maximumBytes else {
            throw VoiceLibraryError("\(source) is \(data.count) bytes, more than a voice profile may be (\(maximumBytes >> 20) MiB)")
        }
        struct Header: Decodable { var format: String?; var version: Int? }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == format else {
            throw VoiceLibraryError("\(source) is not a Warble voice profile")
        }
        guard header.version == version else {
            throw VoiceLibraryError("\(source) is a version \(header.version.map(String.init) ?? "?") voice profile; "
                + "this Warble reads version \(version)")
        }
        let envelope: Envelope
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            envelope = try decoder.decode(Envelope.self, from: data)
        } catch {
            throw VoiceLibraryError("\(source) is a damaged voice profile: \(error)")
        }
        let actual = try checksum(envelope.profile)
        guard actual == envelope.sha256 else {
            throw VoiceLibraryError("\(source) is damaged: its checksum is \(envelope.sha256), its content hashes to \(actual)")
        }
        // A checksum proves the file is whole, not that whoever wrote it meant well.
        if let problem = envelope.profile.problem {
            throw VoiceLibraryError("\(source) is not a usable voice profile: \(problem)")
        }
        return envelope.profile
    }

    /// SHA-256 (hex) of the profile's canonical encoding.
    public static func checksum(_ profile: VoiceProfile) throws -> String {
        SHA256.hex(try encoder(pretty: false).encode(profile))
    }

    private static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}

/// A voice library problem: what is wrong, and with which file or voice.
public struct VoiceLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
