import ArgumentParser
import Foundation
import WarbleSpeech

/// How `warble say --events` prints what happens in the speech.
enum EventFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case json
}

/// Prints each sentence, word and SSML mark of the speech as a JSON line, as its chunk is written:
/// `{"type":"word","time":0.42,"text":"Hello","start":0,"end":5,"estimated":true}`. `time` is seconds
/// from the start of the audio; `start`/`end` are UTF-8 byte offsets into the input text.
struct EventPrinter {
    let format: EventFormat
    let text: String
    let toStandardError: Bool

    func print(_ events: [SpeechEvent], at chunkStart: Double, sampleRate: Int) {
        for event in events {
            let time = ((chunkStart + Double(event.sampleOffset) / Double(sampleRate)) * 1000).rounded() / 1000
            guard let json = try? WarbleJSON.string(TimedEvent(event, time: time, text: slice)) else { continue }
            let handle = toStandardError ? FileHandle.standardError : FileHandle.standardOutput
            handle.write(Data((json + "\n").utf8))
        }
    }

    private func slice(_ range: Range<Int>) -> String {
        let bytes = Array(text.utf8)
        let clamped = min(range.lowerBound, bytes.count)..<min(range.upperBound, bytes.count)
        return String(decoding: bytes[clamped], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
