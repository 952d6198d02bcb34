import Foundation
@testable import WarbleServer

/// libFuzzer entry: the JSON body of `POST /v1/audio/speech`, decoded as the route decodes it and
/// checked as the route checks it (`SpeechRoute.decode` and the synchronous part of `SpeechRoute.plan`).
/// Any bytes must give a request or an error the client is told about as a 4xx with a JSON body,
/// never a crash or a 500.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpeechBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    let limits = ServerConfiguration()
    do {
        let speech = try JSONDecoder().decode(SpeechRequestBody.self, from: body)
        try check(speech, maxInputCharacters: limits.maxInputCharacters)
    } catch {
        let answer = APIError(translating: error)
        precondition((400..<500).contains(answer.status.code), "a bad body was answered \(answer.description)")
        precondition(!answer.body.isEmpty && (try? JSONSerialization.jsonObject(with: answer.body)) != nil,
                     "the error body is not JSON")
    }
    return 0
}

/// The route's checks of a decoded body before it looks up the voice (SpeechRoute.plan).
private func check(_ speech: SpeechRequestBody, maxInputCharacters: Int) throws {
    guard !speech.input.allSatisfy(\.isWhitespace) else {
        throw APIError.badRequest("input is empty", param: "input", code: "invalid_input")
    }
    guard speech.input.count <= maxInputCharacters else {
        throw APIError.badRequest("input is too long", param: "input", code: "string_above_max_length")
    }
    let speed = speech.speed ?? 1
    guard (0.25...4).contains(speed) else {
        throw APIError.badRequest("speed \(speed) is outside 0.25...4", param: "speed", code: "invalid_value")
    }
    _ = speech.isSSML
    _ = (speech.responseFormat ?? .mp3).isAvailable
}

// SwiftPM links an executable with `main` renamed to `<target>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_speech_body_main")
public func fuzzSpeechBodyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzSpeechBody($0, $1) }
}
