import Foundation

// Hand-written, not multipart-kit 4.7.1: its MultipartParser sets no limit on the part count or a part's header block, which this parser refuses (the hostile-input suite checks both).

/// A `multipart/form-data` body (RFC 7578, in RFC 2046's multipart syntax) split into its fields.
/// The whole body is in memory: the server collects it within its upload limit first. Strict where
/// it matters (CRLF line ends, a `Content-Disposition: form-data` with a name on every part, the
/// closing `--boundary--`), lenient where RFC 2046 allows (preamble, epilogue, transport padding).
struct MultipartForm: Sendable {
    struct Part: Sendable, Equatable {
        var name: String
        var filename: String?
        /// The part's `Content-Type`, as sent (nil when absent: text/plain by RFC 7578).
        var contentType: String?
        var body: Data
    }

    var parts: [Part]

    /// Refuses bodies with more parts than this (a form has a handful of fields).
    static let maxParts = 256
    /// Refuses a part whose header block is longer than this.
    static let maxHeaderBytes = 16 << 10

    /// The boundary of a `Content-Type: multipart/form-data; boundary=…` header.
    static func boundary(contentType: String?) throws(MultipartError) -> String {
        guard let contentType, !contentType.isEmpty else {
            throw MultipartError("the request has no Content-Type: send multipart/form-data "
                + "(as OpenAI's clients and curl -F do)")
        }
        let header = try HeaderParameters(contentType)
        guard header.value == "multipart/form-data" else {
            throw MultipartError("Content-Type is '\(header.value)'; this route takes multipart/form-data "
                + "(a 'file' field with the audio, and text fields)")
        }
        guard let boundary = header.parameters["boundary"] else {
            throw MultipartError("Content-Type multipart/form-data has no boundary parameter")
        }
        guard (1...70).contains(boundary.utf8.count) else {
            throw MultipartError("the multipart boundary has \(boundary.utf8.count) characters; RFC 2046 allows 1 to 70")
        }
        return boundary
    }

    init(body: [UInt8], boundary: String) throws(MultipartError) {
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var parts: [Part] = []
        let result: Result<Void, MultipartError> = body.withUnsafeBufferPointer { bytes in
            do throws(MultipartError) {
                // The first boundary opens the body, or follows a preamble and a CRLF.
                var position: Int
                if Self.hasPrefix(bytes, dashBoundary, at: 0) {
                    position = dashBoundary.count
                } else if let found = Self.find(delimiter, in: bytes, from: 0) {
                    position = found + delimiter.count
                } else {
                    throw MultipartError("the body has no boundary '--\(boundary)' (\(bytes.count) bytes, starting "
                        + "\(Self.describe(bytes, at: 0))): it is not the multipart body its Content-Type announces")
                }
                while true {
                    if Self.hasPrefix(bytes, Array("--".utf8), at: position) { break }  // the closing delimiter
                    while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
                    guard position < bytes.count else {
                        throw MultipartError("the body ends after a boundary without the closing '--\(boundary)--' "
                            + "(truncated upload?)")
                    }
                    guard Self.hasPrefix(bytes, [0x0D, 0x0A], at: position) else {
                        throw MultipartError("expected CRLF after the boundary, found \(Self.describe(bytes, at: position))")
                    }
                    position += 2
                    guard parts.count < Self.maxParts else {
                        throw MultipartError("the form has more than \(Self.maxParts) parts")
                    }
                    // Headers up to an empty line (none at all when the part starts with the empty line).
                    let headerEnd: Int, bodyStart: Int
                    if Self.hasPrefix(bytes, [0x0D, 0x0A], at: position) {
                        headerEnd = position
                        bodyStart = position + 2
                    } else if let end = Self.find(Array("\r\n\r\n".utf8), in: bytes, from: position,
                                                  before: position + Self.maxHeaderBytes) {
                        headerEnd = end
                        bodyStart = end + 4
                    } else {
                        throw MultipartError("part \(parts.count + 1) has no end to its headers (an empty line, CRLF CRLF) "
                            + "within \(Self.maxHeaderBytes) bytes")
                    }
                    let headers = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<headerEnd]), as: UTF8.self)
                    guard let end = Self.findDelimiter(delimiter, in: bytes, from: bodyStart) else {
                        throw MultipartError("part \(parts.count + 1) is not followed by a boundary: the body has no "
                            + "closing '--\(boundary)--' (truncated upload?)")
                    }
                    parts.append(try Self.part(headers: headers, body: Data(bytes[bodyStart..<end]), index: parts.count + 1))
                    position = end + delimiter.count
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        self.parts = parts
    }

    /// The first part named `name`.
    func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// Every part named `name` (repeated fields such as `timestamp_granularities[]`).
    func parts(_ name: String) -> [Part] { parts.filter { $0.name == name } }

    /// The text of the field `name` (UTF-8), nil when absent.
    func text(_ name: String) throws(MultipartError) -> String? {
        guard let part = part(name) else { return nil }
        guard let text = String(data: part.body, encoding: .utf8) else {
            throw MultipartError("field '\(name)' is not UTF-8 text (\(part.body.count) bytes)")
        }
        return text
    }

    private static func part(headers: String, body: Data, index: Int) throws(MultipartError) -> Part {
        var disposition: HeaderParameters?
        var contentType: String?
        for line in headers.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw MultipartError("part \(index) has a header line without ':': '\(line.prefix(80))'")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-disposition": disposition = try HeaderParameters(value)
            case "content-type": contentType = value
            default: break
            }
        }
        guard let disposition else {
            throw MultipartError("part \(index) has no Content-Disposition header (RFC 7578 requires "
                + "'Content-Disposition: form-data; name=\"…\"')")
        }
        guard disposition.value == "form-data" else {
            throw MultipartError("part \(index) has Content-Disposition '\(disposition.value)'; expected form-data")
        }
        guard let name = disposition.parameters["name"] else {
            throw MultipartError("part \(index) has no name in its Content-Disposition")
        }
        return Part(name: name, filename: disposition.parameters["filename"], contentType: contentType, body: body)
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8], at position: Int) -> Bool {
        guard position >= 0, position + prefix.count <= bytes.count else { return false }
        return prefix.withUnsafeBufferPointer { memcmp(bytes.baseAddress! + position, $0.baseAddress!, prefix.count) == 0 }
    }

    /// The first index at or after `start` where `needle` begins (entirely before `limit`).
    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int,
                             before limit: Int = .max) -> Int? {
        let end = min(bytes.count, limit)
        guard let base = bytes.baseAddress, !needle.isEmpty else { return nil }
        var position = start
        while position + needle.count <= end {
            guard let hit = memchr(base + position, Int32(needle[0]), end - position - needle.count + 1) else { return nil }
            let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if hasPrefix(bytes, needle, at: index) { return index }
            position = index + 1
        }
        return nil
    }

    /// The next real delimiter: CRLF--boundary followed by `--` or by optional spaces and CRLF.
    /// Anything else that merely starts like one ("--boundary_2") is content (RFC 2046 §5.1.1).
    private static func findDelimiter(_ delimiter: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var position = start
        while let found = find(delimiter, in: bytes, from: position) {
            var next = found + delimiter.count
            if hasPrefix(bytes, [0x2D, 0x2D], at: next) { return found }
            while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
            if hasPrefix(bytes, [0x0D, 0x0A], at: next) { return found }
            position = found + 1
        }
        return nil
    }

    /// What is at `position`, for messages: up to 16 bytes, printable ones as text.
    private static func describe(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> String {
        guard position < bytes.count else { return "the end of the body" }
        let slice = bytes[position..<min(bytes.count, position + 16)]
        let text = slice.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
        return "'\(text)'"
    }
}

/// A request body that is not well-formed `multipart/form-data`, and what was found instead.
struct MultipartError: Error, Sendable, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
