import ArgumentParser
import Foundation

/// Decides, before any synthesis, what `warble say` writes and whether it may: the format from
/// `--format` or the file's extension (an extension Warble cannot write is an error, never silently
/// WAV), and no existing file that is not audio is replaced without `--force`.
enum OutputTarget {
    /// The format for `path` (nil: standard output or no file). A `--format` that contradicts the file's
    /// extension (`-o x.wav --format mp3`) is refused; with an extension that names no format it is obeyed.
    static func format(path: String?, explicit: OutputFormat?) throws -> OutputFormat {
        if let explicit {
            if let path, path != "-", let named = OutputFormat(fileName: path), named != explicit {
                throw ValidationErrorMessage("--format \(explicit.rawValue) contradicts the file name \(path), whose extension "
                    + "means \(named.rawValue); name the file .\(explicit.preferredExtension), or leave out --format")
            }
            return explicit
        }
        guard let path, path != "-" else { return .wav }
        let suffix = (path as NSString).pathExtension
        if suffix.isEmpty { return .wav }
        guard let format = OutputFormat(fileName: path) else {
            let known = OutputFormat.extensions.map { "." + $0.0 }.joined(separator: " ")
            throw ValidationErrorMessage("warble cannot write .\(suffix) files; it writes \(known). "
                + "Name the file with one of those, or give --format to choose the format yourself.")
        }
        return format
    }

    /// Throws when `path` is an existing regular file whose bytes are not audio, unless `force`.
    static func checkOverwrite(path: String?, force: Bool) throws {
        guard !force, let path, path != "-" else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue { throw ValidationErrorMessage("\(path) is a directory; give a file name") }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 12)) ?? Data()
        guard !head.isEmpty, !looksLikeAudio(head), !OutputFormat.rawExtensions.contains((path as NSString).pathExtension.lowercased()) else { return }
        throw ValidationErrorMessage("\(path) exists and is not an audio file; warble will not overwrite it. "
            + "Give --force to replace it, or choose another name.")
    }

    /// Whether the first bytes of a file are those of an audio format (WAV, RF64, FLAC, Ogg, MP3, AIFF).
    static func looksLikeAudio(_ head: Data) -> Bool {
        let bytes = [UInt8](head)
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let pattern = Array(text.utf8)
            return bytes.count >= offset + pattern.count && Array(bytes[offset..<offset + pattern.count]) == pattern
        }
        if (starts("RIFF") || starts("RF64")) && starts("WAVE", at: 8) { return true }
        if starts("FORM") && (starts("AIFF", at: 8) || starts("AIFC", at: 8)) { return true }
        if starts("fLaC") || starts("OggS") || starts("ID3") { return true }
        return bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0
    }
}

extension OutputFormat {
    /// The first extension that means this format (`.wav`, `.ogg`, `.raw`).
    var preferredExtension: String { Self.extensions.first { $0.1 == self }?.0 ?? rawValue }

    /// Extensions of headerless PCM, whose bytes cannot be told from anything else.
    static var rawExtensions: Set<String> { Set(extensions.filter { $0.1 == .raw }.map(\.0)) }
}
