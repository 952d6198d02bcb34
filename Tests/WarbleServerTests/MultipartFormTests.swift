import Foundation
import Testing
@testable import WarbleServer

/// The RFC 7578 multipart/form-data parser: boundaries, quoted parameters, CRLF, binary bodies and
/// every malformed body it must refuse with a message saying what it found.
@Suite struct MultipartFormTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func textFieldsAndAFile() throws {
        let body = Self.bytes("--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"model\"\r\n\r\n"
            + "whisper-1\r\n"
            + "--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"clip.wav\"\r\n"
            + "Content-Type: audio/wav\r\n\r\n"
            + "RIFF....\r\n"
            + "--XyZ--\r\n")
        let form = try MultipartForm(body: body, boundary: "XyZ")
        #expect(form.parts.count == 2)
        #expect(try form.text("model") == "whisper-1")
        let file = try #require(form.part("file"))
        #expect(file.filename == "clip.wav")
        #expect(file.contentType == "audio/wav")
        #expect(file.body == Data("RIFF....".utf8))
        #expect(form.part("missing") == nil)
    }

    @Test func binaryBodyWithCRLFAndBoundaryLookalikesInside() throws {
        // Every byte value, plus CR LF, "--" and a near-boundary inside the file: only CRLF--boundary ends it.
        var payload = (0...255).map { UInt8($0) }
        payload += Self.bytes("\r\n--XyZ_not\r\n--Xy\r\n\r\n")
        payload += (0...255).map { UInt8(255 - $0) }
        var body = Self.bytes("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"b.bin\"\r\n\r\n")
        body += payload
        body += Self.bytes("\r\n--XyZ--")
        // "\r\n--XyZ_not" starts like the delimiter but is not followed by CRLF or "--": it is content.
        let form = try MultipartForm(body: body, boundary: "XyZ")
        #expect(form.part("file")?.body == Data(payload))

        let clean = (0...255).map { UInt8($0) } + Self.bytes("\r\n--Xy\r\n\r\n-") + (0...255).map { UInt8(255 - $0) }
        var body2 = Self.bytes("--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n")
        body2 += clean + Self.bytes("\r\n--XyZ--")
        #expect(try MultipartForm(body: body2, boundary: "XyZ").part("file")?.body == Data(clean))
    }

    @Test func preambleEpilogueTransportPaddingAndEmptyValues() throws {
        let body = Self.bytes("This is the preamble.\r\n--b  \t\r\n"
            + "content-disposition: form-data; name=language\r\n\r\n"
            + "\r\n--b\r\n"
            + "Content-Disposition: form-data; name=\"prompt\"\r\n\r\n"
            + "Line one\r\nline two\r\n--b--\r\nepilogue, ignored")
        let form = try MultipartForm(body: body, boundary: "b")
        #expect(try form.text("language") == "")
        #expect(try form.text("prompt") == "Line one\r\nline two")
    }

    @Test func quotedParametersWithEscapesSemicolonsAndCase() throws {
        let body = Self.bytes("--q\r\n"
            + "CONTENT-DISPOSITION: Form-Data; NAME=\"file\"; filename=\"a \\\"b\\\"; c.wav\" ;\r\n\r\n"
            + "x\r\n--q--")
        let part = try #require(try MultipartForm(body: body, boundary: "q").part("file"))
        #expect(part.filename == "a \"b\"; c.wav")

        let header = try HeaderParameters("multipart/form-data; boundary=\"----abc; d\"; charset=utf-8")
        #expect(header.value == "multipart/form-data")
        #expect(header.parameters == ["boundary": "----abc; d", "charset": "utf-8"])
    }

    @Test func repeatedFieldsAndAPartWithoutHeadersBeyondDisposition() throws {
        let body = Self.bytes("--r\r\nContent-Disposition: form-data; name=\"timestamp_granularities[]\"\r\n\r\nsegment"
            + "\r\n--r\r\nContent-Disposition: form-data; name=\"timestamp_granularities[]\"\r\n\r\nword\r\n--r--")
        let form = try MultipartForm(body: body, boundary: "r")
        #expect(form.parts("timestamp_granularities[]").map { String(decoding: $0.body, as: UTF8.self) } == ["segment", "word"])
    }

    @Test func boundaryFromContentType() throws {
        #expect(try MultipartForm.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(try MultipartForm.boundary(contentType: "Multipart/Form-Data;boundary=\"a b:c\"") == "a b:c")
        let missing = #expect(throws: MultipartError.self) { try MultipartForm.boundary(contentType: nil) }
        #expect(missing?.message.contains("no Content-Type") == true)
        let json = #expect(throws: MultipartError.self) { try MultipartForm.boundary(contentType: "application/json") }
        #expect(json?.message.contains("'application/json'") == true)
        let noBoundary = #expect(throws: MultipartError.self) { try MultipartForm.boundary(contentType: "multipart/form-data") }
        #expect(noBoundary?.message.contains("no boundary") == true)
        let long = #expect(throws: MultipartError.self) {
            try MultipartForm.boundary(contentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71))
        }
        #expect(long?.message.contains("71 characters") == true)
        #expect(throws: MultipartError.self) { try MultipartForm.boundary(contentType: "multipart/form-data; boundary=\"abc") }
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var body: String
        var messageContains: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "no boundary at all", body: "model=whisper-1&file=x", messageContains: "has no boundary '--B'"),
        Malformed(name: "missing closing boundary", body: "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue",
                  messageContains: "no closing '--B--'"),
        Malformed(name: "body ends after a boundary", body: "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--B",
                  messageContains: "closing '--B--'"),
        Malformed(name: "bare LF after the boundary", body: "--B\nContent-Disposition: form-data; name=\"a\"\n\nv\n--B--",
                  messageContains: "expected CRLF after the boundary"),
        Malformed(name: "headers never end", body: "--B\r\nContent-Disposition: form-data; name=\"a\"\r\nv\r\n--B--",
                  messageContains: "no end to its headers"),
        Malformed(name: "no Content-Disposition", body: "--B\r\nContent-Type: text/plain\r\n\r\nv\r\n--B--",
                  messageContains: "no Content-Disposition"),
        Malformed(name: "not form-data", body: "--B\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--B--",
                  messageContains: "'attachment'"),
        Malformed(name: "no name", body: "--B\r\nContent-Disposition: form-data; filename=\"a.wav\"\r\n\r\nv\r\n--B--",
                  messageContains: "no name"),
        Malformed(name: "header line without colon", body: "--B\r\nContent-Disposition form-data\r\n\r\nv\r\n--B--",
                  messageContains: "without ':'"),
        Malformed(name: "unterminated quote", body: "--B\r\nContent-Disposition: form-data; name=\"a\r\n\r\nv\r\n--B--",
                  messageContains: "unterminated quoted value"),
        Malformed(name: "empty body", body: "", messageContains: "0 bytes"),
    ]

    @Test(arguments: malformed)
    func refused(_ test: Malformed) {
        let error = #expect(throws: MultipartError.self) { try MultipartForm(body: Self.bytes(test.body), boundary: "B") }
        #expect(error?.message.contains(test.messageContains) == true, "\(error?.message ?? "no error")")
    }

    @Test func nonUTF8TextFieldIsRefused() throws {
        let body = Self.bytes("--B\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n") + [0xFF, 0xFE]
            + Self.bytes("\r\n--B--")
        let form = try MultipartForm(body: body, boundary: "B")
        let error = #expect(throws: MultipartError.self) { try form.text("model") }
        #expect(error?.message.contains("not UTF-8") == true)
    }

    @Test func tooManyParts() {
        let part = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n"
        let body = String(repeating: part, count: MultipartForm.maxParts + 1) + "--B--"
        let error = #expect(throws: MultipartError.self) { try MultipartForm(body: Self.bytes(body), boundary: "B") }
        #expect(error?.message.contains("more than \(MultipartForm.maxParts) parts") == true)
    }

    @Test func largeBinaryFileIsFound() throws {
        // 8 MB of pseudo-random bytes (CR and LF included) through the memchr search.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let payload = (0..<(8 << 20)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let boundary = "----WarbleBoundary7MA4YWxkTrZu0gW"
        var body = Self.bytes("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r.bin\"\r\n\r\n")
        body += payload
        body += Self.bytes("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n--\(boundary)--\r\n")
        let form = try MultipartForm(body: body, boundary: boundary)
        #expect(form.part("file")?.body.count == payload.count)
        #expect(form.part("file")?.body == Data(payload))
        #expect(try form.text("model") == "whisper-1")
    }
}
