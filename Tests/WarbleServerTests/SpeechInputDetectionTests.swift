import Foundation
import Testing
@testable import WarbleServer

/// What counts as SSML in a speech request: the flag, or a document that starts as real SSML does.
@Suite struct SpeechInputDetectionTests {
    func body(_ input: String, ssml: Bool? = nil) throws -> SpeechRequestBody {
        var fields: [String: Any] = ["model": "tts-1", "voice": "test-voice", "input": input]
        if let ssml { fields["ssml"] = ssml }
        return try JSONDecoder().decode(SpeechRequestBody.self, from: JSONSerialization.data(withJSONObject: fields))
    }

    @Test(arguments: [
        "<speak>Hello.</speak>",
        #"<?xml version="1.0"?><speak>Hello.</speak>"#,
        "<!DOCTYPE speak><!-- note --><speak>Hello.</speak>",
        "\u{FEFF}\n  <speak>Hello.</speak>",
    ])
    func documentsAreSSML(_ input: String) throws {
        #expect(try body(input).isSSML)
    }

    @Test func plainTextAndTheFlag() throws {
        #expect(try !body("Hello <speak> there.").isSSML)
        #expect(try !body("<speakers> are loud").isSSML)
        #expect(try body("Hello.", ssml: true).isSSML)
        #expect(try !body("<speak>Hello.</speak>", ssml: false).isSSML)
    }
}
