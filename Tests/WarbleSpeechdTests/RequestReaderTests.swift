import Testing
import WarbleSpeechd

@Suite struct RequestReaderTests {
    /// Feeds lines and collects every step.
    func steps(_ lines: [String]) -> [RequestReader.Step] {
        var reader = RequestReader()
        return lines.compactMap { reader.consume($0) }
    }

    @Test func speakBlockIsAcknowledgedThenCompleteWithDotsUnescaped() {
        let result = steps(["SPEAK", "<speak>Hello", "..", "..dots", "</speak>", "."])
        #expect(result == [
            .reply("202 OK RECEIVING MESSAGE"),
            .request(.speak(.text, "<speak>Hello\n.\n.dots\n</speak>")),
        ])
    }

    @Test(arguments: [("CHAR", MessageKind.character), ("KEY", .key), ("SOUND_ICON", .soundIcon)])
    func oneLineMessages(command: String, kind: MessageKind) {
        #expect(steps([command, "x", "."]) == [.reply("202 OK RECEIVING MESSAGE"), .request(.speak(kind, "x"))])
        #expect(steps([command, "x", "y", "."]) == [.reply("202 OK RECEIVING MESSAGE"), .reply("305 DATA MORE THAN ONE LINE")])
    }

    @Test func emptyMessageCannotBeSpoken() {
        #expect(steps(["SPEAK", "."]) == [.reply("202 OK RECEIVING MESSAGE"), .reply("301 ERROR CANT SPEAK")])
    }

    @Test func settingsBlocks() {
        #expect(steps(["SET", "rate=20", "language=en-US", "synthesis_voice=NULL", "."]) == [
            .reply("203 OK RECEIVING SETTINGS"),
            .request(.set([Setting("rate", "20"), Setting("language", "en-US"), Setting("synthesis_voice", "NULL")])),
        ])
        #expect(steps(["AUDIO", "audio_output_method=server", "."]) == [
            .reply("207 OK RECEIVING AUDIO SETTINGS"), .request(.audio([Setting("audio_output_method", "server")])),
        ])
        #expect(steps(["LOGLEVEL", "log_level=4", "."]) == [
            .reply("207 OK RECEIVING LOGLEVEL SETTINGS"), .request(.logLevel([Setting("log_level", "4")])),
        ])
        #expect(steps(["SET", "rate", "pitch=", "."]) == [.reply("203 OK RECEIVING SETTINGS"), .reply("302 ERROR BAD SYNTAX")])
    }

    @Test func singleLineCommands() {
        #expect(steps(["INIT", "STOP", "PAUSE", "QUIT", "LIST VOICES", "LIST VOICES en-US male", "BOGUS"]) == [
            .request(.initialize), .request(.stop), .request(.pause), .request(.quit),
            .request(.listVoices(language: nil, variant: nil)),
            .request(.listVoices(language: "en-US", variant: "male")),
            .request(.unknown("BOGUS")),
        ])
    }

    @Test func commandWordsInsideAMessageAreText() {
        #expect(steps(["SPEAK", "STOP", "QUIT", "."]) == [.reply("202 OK RECEIVING MESSAGE"), .request(.speak(.text, "STOP\nQUIT"))])
    }
}
