import Testing
@testable import WarbleText

/// Hostile SSML: every number written in a document is bounded before anything is allocated from it,
/// and what real SSML documents start with is recognised as SSML.
@Suite struct SSMLLimitsTests {
    let parser = SSMLParser()

    @Test(arguments: ["99999999999s", "1e300s", "1e9ms", "1e5s", "3600s", "10.001s", "10001ms", "10001"])
    func breakOverTheLimitIsRefusedWithItsPlace(_ time: String) throws {
        let ssml = "<speak>a\n  <break time=\"\(time)\"/> b</speak>"
        let error = try #require(throws: TextError.self) { try parser.parse(ssml) }
        #expect(error.line == 2)
        #expect(error.column == 3)
        #expect(error.message.contains("longer than the 10 s a break may last"), "\(error.message)")
        #expect(error.message.contains(time))
    }

    @Test func breakAtTheLimitIsKept() throws {
        #expect(try parser.parse(#"<speak>a<break time="10s"/>b</speak>"#).map(\.content)
            == [.text("a"), .pause(10), .text("b")])
        #expect(try parser.parse(#"<speak>a<break time="10000ms"/>b</speak>"#).map(\.content)
            == [.text("a"), .pause(10), .text("b")])
    }

    @Test(arguments: ["NaNs", "nan", "infs", "-infs", "-5s", "1e309s", "+s", "ms", ""])
    func breakTimeThatIsNoDurationIsRefused(_ time: String) throws {
        let error = try #require(throws: TextError.self) { try parser.parse("<speak>a<break time=\"\(time)\"/>b</speak>") }
        #expect(error.message.contains("accepted: a duration"), "\(error.message)")
    }

    @Test(arguments: [
        ("rate", "1e300"), ("rate", "0.0001%"), ("rate", "NaN"), ("rate", "11"), ("rate", "0.05"), ("rate", "+2000%"),
        ("pitch", "+1e300st"), ("pitch", "-30st"), ("pitch", "1e9Hz"), ("pitch", "inf%"),
        ("volume", "+1000dB"), ("volume", "-infdB"), ("volume", "+13dB"), ("volume", "1e300"), ("volume", "500%"),
    ])
    func prosodyOutOfRangeIsRefused(_ attribute: String, _ value: String) throws {
        let ssml = "<speak><prosody \(attribute)=\"\(value)\">x</prosody></speak>"
        let error = try #require(throws: TextError.self) { try parser.parse(ssml) }
        #expect(error.message.contains("<prosody \(attribute)=\"\(value)\"> is not valid"), "\(error.message)")
        #expect(error.column == 8)
    }

    @Test func deepNestingStaysInsideTheLimits() throws {
        let depth = 100_000
        let ssml = "<speak>" + String(repeating: #"<prosody rate="x-slow" pitch="x-low" volume="x-loud">"#, count: depth)
            + "deep" + String(repeating: "</prosody>", count: depth) + "</speak>"
        let segments = try parser.parse(ssml)
        #expect(segments.map(\.content) == [.text("deep")])
        #expect(segments[0].prosody == Prosody(rate: 0.1, pitch: 0.25, volume: 4))

        let fast = "<speak>" + String(repeating: #"<emphasis level="reduced"><prosody rate="x-fast">"#, count: 5_000)
            + "x" + String(repeating: "</prosody></emphasis>", count: 5_000) + "</speak>"
        let quiet = try parser.parse(fast)
        #expect(quiet[0].prosody.rate == 10)
        #expect(quiet[0].prosody.volume > 0)
    }

    @Test(arguments: [
        #"<?xml version="1.0" encoding="UTF-8"?><speak>Hello.</speak>"#,
        "<?xml version=\"1.0\"?>\n<!DOCTYPE speak PUBLIC \"-//W3C//DTD SYNTHESIS 1.0//EN\" \"synthesis.dtd\">\n<speak>Hello.</speak>",
        "<!-- spoken by the test --><speak>Hello.</speak>",
        "\u{FEFF}\n\n  <speak>Hello.</speak>",
        "<!DOCTYPE speak [<!ENTITY x \"y\"> <!ELEMENT speak ANY>]><?pi data?><!-- a --><speak version=\"1.1\">Hello.</speak>",
    ])
    func realDocumentsAreSSML(_ document: String) throws {
        #expect(SSMLParser.isSSML(document))
        #expect(try parser.parse(document).map(\.content) == [.text("Hello.")])
    }

    @Test(arguments: [
        "Hello.", "<speakers> are loud", "<!-- not closed <speak>x</speak>", "<?xml version=\"1.0\"", "<p>Hello.</p>",
        "<!DOCTYPE speak [ unclosed <speak>x</speak>", "",
    ])
    func otherInputIsPlainText(_ text: String) {
        #expect(!SSMLParser.isSSML(text))
    }

    @Test func externalEntitiesAreNeverExpanded() throws {
        let ssml = #"<!DOCTYPE speak [<!ENTITY x SYSTEM "file:///etc/passwd">]><speak>Hi &x;</speak>"#
        let error = try #require(throws: TextError.self) { try parser.parse(ssml) }
        #expect(error.message.contains("unknown entity &x;"))
    }

    @Test(arguments: [
        (#"<speak>Hello <break time="1e300s"/> world.</speak>"#, "Hello world."),
        ("<speak>Fish &amp; chips &lt;3 &#x263A; &#9731;</speak>", "Fish & chips <3 ☺ ☃"),
        ("<speak>Unclosed <prosody rate='fast'>there", "Unclosed there"),
        (#"<?xml version="1.0"?><speak><p><s>One.</s><s>Two.</s></p></speak>"#, "One. Two."),
        ("<speak>A & B &nosuch; &#0; end", "A & B end"),
        ("no markup at all", "no markup at all"),
    ])
    func textWithoutMarkupKeepsTheWords(_ ssml: String, _ expected: String) {
        #expect(SSMLParser.textWithoutMarkup(ssml) == expected)
    }

    @Test func hugeWordsAreCutButOrdinaryWordsAreKept() throws {
        let word = String(repeating: "a", count: 100_000)
        let chunks = try TextChunker(limit: .characters(100)).chunks("Before " + word + " after.")
        #expect(chunks.allSatisfy { $0.count <= 100 })
        #expect(chunks.joined().filter { $0 == "a" }.count == 100_000 + 1)
        let long = "Pneumonoultramicroscopicsilicovolcanoconiosis"  // 45 characters, under 3 × 20
        #expect(try TextChunker(limit: .characters(20), minimumLength: 1).chunks("A \(long) case.").contains(Substring(long)))
    }
}
