import Foundation
import WarbleSpeech
@testable import WarbleServer

/// libFuzzer entry: the `multipart/form-data` parser of the transcription routes. The input's first
/// line is the request's Content-Type header (so the boundary is fuzzed too; when the header is not
/// valid, the line itself is tried as the boundary), the rest is the body. Any bytes must give a form
/// or a MultipartError, never a crash; a form's parts must lie inside the body, and the form's fields
/// are then read as the route reads them (TranscriptionForm), which may only throw.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: 0x0A) ?? size
    let header = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<newline]), as: UTF8.self)
    let body = Array(bytes[min(newline + 1, size)...])
    var boundaries: [String] = []
    if let boundary = try? MultipartForm.boundary(contentType: header) { boundaries.append(boundary) }
    if (1...70).contains(header.utf8.count) { boundaries.append(header) }
    for boundary in boundaries {
        guard let form = try? MultipartForm(body: body, boundary: boundary) else { continue }
        precondition(form.parts.count <= MultipartForm.maxParts, "\(form.parts.count) parts")
        let total = form.parts.reduce(0) { $0 + $1.body.count }
        precondition(total <= body.count, "parts hold \(total) bytes of a \(body.count)-byte body")
        for task in [TranscriptionOptions.Task.transcribe, .translate] {
            _ = try? TranscriptionForm(form, task: task)
        }
    }
    return 0
}

// SwiftPM links an executable with `main` renamed to `<target>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_multipart_main")
public func fuzzMultipartMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzMultipart($0, $1) }
}
