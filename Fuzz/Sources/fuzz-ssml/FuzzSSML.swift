import WarbleText

/// libFuzzer entry point: the SSML parser (as sent, and forced into SSML mode inside <speak>) and the
/// PLS lexicon reader must never crash, and every segment's source range must lie inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parser = SSMLParser()
    for input in [text, "<speak>" + text + "</speak>"] {
        guard let segments = try? parser.parse(input) else { continue }
        let length = input.utf8.count
        for segment in segments {
            precondition(segment.sourceRange.lowerBound >= 0 && segment.sourceRange.upperBound <= length,
                         "segment range \(segment.sourceRange) outside input of \(length) bytes")
            if case .pause(let seconds) = segment.content { precondition(seconds >= 0 && seconds.isFinite) }
        }
    }
    if let lexicon = try? PronunciationLexicon(pls: "<lexicon>" + text + "</lexicon>") {
        _ = lexicon.matches(in: text)
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

@_cdecl("fuzz_ssml_main")
public func fuzzSSMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzSSML($0, $1) }
}
