import Testing
@testable import WarbleText

@Suite struct SSMLParserTests {
    let parser = SSMLParser()

    @Test func plainTextPassesThroughUnchanged() throws {
        let text = "Hello <world> & friends,\n  two  spaces."
        let segments = try parser.parse(text)
        #expect(segments == [SpeechSegment(.text(text), sourceRange: 0..<text.utf8.count)])
        #expect(try parser.parse("").isEmpty)
        #expect(try parser.parse("<speakers> are loud").map(\.content) == [.text("<speakers> are loud")])
    }

    @Test func textBreaksMarksAndSourceRanges() throws {
        let ssml = #"<speak>Hello <mark name="m1"/>world.<break time="250ms"/>Bye</speak>"#
        let segments = try parser.parse(ssml)
        #expect(segments.map(\.content) == [.text("Hello "), .mark("m1"), .text("world."), .pause(0.25), .text("Bye")])
        let bytes = Array(ssml.utf8)
        let first = segments[0].sourceRange
        #expect(String(decoding: bytes[first], as: UTF8.self) == "Hello ")
        #expect(String(decoding: bytes[segments[1].sourceRange], as: UTF8.self) == #"<mark name="m1"/>"#)
    }

    @Test(arguments: [
        ("<break/>", 0.5), (#"<break strength="none"/>"#, 0), (#"<break strength="x-strong"/>"#, 1.25),
        (#"<break time="2s"/>"#, 2), (#"<break time="1.5s" strength="weak"/>"#, 1.5), (#"<break time="750ms"/>"#, 0.75),
    ])
    func breaks(_ element: String, _ seconds: Double) throws {
        let segments = try parser.parse("<speak>a\(element)b</speak>")
        #expect(segments[1].content == .pause(seconds))
    }

    @Test(arguments: [
        (#"rate="slow""#, Prosody(rate: 0.75)), (#"rate="150%""#, Prosody(rate: 1.5)),
        (#"rate="+20%""#, Prosody(rate: 1.2)), (#"rate="-50%""#, Prosody(rate: 0.5)), (#"rate="2""#, Prosody(rate: 2)),
        (#"pitch="high""#, Prosody(pitch: 1.1)), (#"pitch="+10%""#, Prosody(pitch: 1.1)),
        (#"pitch="+12st""#, Prosody(pitch: 2)), (#"volume="loud""#, Prosody(volume: 1.5)),
        (#"volume="+6.0206dB""#, Prosody(volume: 2)), (#"volume="50""#, Prosody(volume: 0.5)),
        (#"volume="silent""#, Prosody(volume: 0)),
    ])
    func prosody(_ attribute: String, _ expected: Prosody) throws {
        let segments = try parser.parse("<speak><prosody \(attribute)>x</prosody></speak>")
        let p = try #require(segments.first).prosody
        #expect(abs(p.rate - expected.rate) < 1e-3 && abs(p.pitch - expected.pitch) < 1e-3 && abs(p.volume - expected.volume) < 1e-3,
                "got \(p), want \(expected) (tolerance 1e-3)")
    }

    @Test func nestedProsodyMultipliesAndRestores() throws {
        let segments = try parser.parse(#"<speak><prosody rate="2">a <prosody rate="50%" pitch="low">b</prosody> c</prosody> d</speak>"#)
        #expect(segments.map(\.prosody.rate) == [2, 1, 2, 1])
        #expect(segments.map(\.prosody.pitch) == [1, 0.9, 1, 1])
    }

    @Test func languageVoiceAndEmphasis() throws {
        let ssml = """
            <speak xml:lang="en-US"><voice name="joe">Hi <lang xml:lang="fr-FR">bonjour</lang></voice>\
            <emphasis level="strong">now</emphasis></speak>
            """
        let segments = try parser.parse(ssml)
        #expect(segments.map(\.language) == ["en-US", "fr-FR", "en-US"])
        #expect(segments.map(\.voice) == ["joe", "joe", nil])
        #expect(segments[2].emphasis == .strong)
        #expect(segments[2].prosody.volume > 1)
    }

    @Test func sayAsSubAndPhoneme() throws {
        let ssml = """
            <speak><say-as interpret-as="date" format="mdy">3/14/2025</say-as> <sub alias="World Wide Web">WWW</sub> \
            <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme><say-as interpret-as="characters">abc</say-as></speak>
            """
        let segments = try parser.parse(ssml)
        #expect(segments.map(\.content) == [.text("3/14/2025"), .text("World Wide Web "), .phonemes("təˈmɑːtoʊ"), .text("abc")])
        #expect(segments[0].sayAs == SayAs(.date, format: "mdy"))
        #expect(segments[3].sayAs == SayAs(.characters))
    }

    @Test func entitiesCDATAAndComments() throws {
        let ssml = "<?xml version=\"1.0\"?>\n<!DOCTYPE speak [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n" +
            "<speak>A &amp; B &lt;&#65;&#x42;&gt; <!-- hidden --><![CDATA[<raw> & text]]>&apos;&quot;</speak>"
        let segments = try parser.parse(ssml)
        #expect(segments.map(\.content) == [.text("A & B <AB> <raw> & text'\"")])
    }

    @Test func paragraphsAndSentencesSeparate() throws {
        let segments = try parser.parse("<speak><p><s>One.</s><s>Two.</s></p><p>Three.</p></speak>")
        #expect(segments.map(\.content) == [.text("One."), .pause(0), .text("Two."), .pause(0), .text("Three."), .pause(0)])
    }

    @Test(arguments: [
        ("<speak>hello", 1, 1, "not closed"),
        ("<speak>\n  <prosody rate=\"fast\">x</speak>", 2, 25, "does not match"),
        ("<speak>a &nbsp; b</speak>", 1, 10, "unknown entity"),
        ("<speak>\n<break time=\"soon\"/></speak>", 2, 1, "accepted"),
        ("<speak><mark/></speak>", 1, 8, "no name"),
        ("<speak a=1></speak>", 1, 10, "not quoted"),
        ("<speak>x</speak>tail", 1, 17, "after </speak>"),
        ("<speak><say-as interpret-as=\"weird\">1</say-as></speak>", 1, 8, "interpret-as"),
        ("<speak><!-- open", 1, 8, "comment"),
        ("<speak>ok</sp eak>", 1, 10, "end tag"),
    ])
    func malformedInputGivesLineAndColumn(_ ssml: String, _ line: Int, _ column: Int, _ text: String) {
        do {
            _ = try parser.parse(ssml)
            Issue.record("expected an error for \(ssml.debugDescription)")
        } catch let error as TextError {
            #expect(error.kind == .ssml)
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(text), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
