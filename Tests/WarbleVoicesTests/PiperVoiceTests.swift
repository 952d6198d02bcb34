import WarbleSpeech
import Foundation
import ONNXRuntime
import Testing
import WarbleEngine
import WarbleModels
import WarbleTestSupport

@Suite(.needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized) struct PiperVoiceTests {
    @Test func speaksASentenceDeterministically() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        #expect(piper.sampleRate == 22050)
        let synthesizer = StreamingSynthesizer(renderer: piper)
        let request = SynthesisRequest(text: "The quick brown fox jumps over the lazy dog.")
        let first = try await collect(synthesizer.synthesize(request)).flatMap(\.samples)
        let second = try await collect(synthesizer.synthesize(request)).flatMap(\.samples)
        #expect(first == second, "noise scales 0 make Piper deterministic")
        let seconds = Double(first.count) / 22050
        #expect(seconds > 1.5 && seconds < 5, "a nine-word sentence lasts \(seconds) s")
        #expect(rms(first) > 0.02, "not silent")
        #expect(first.allSatisfy { $0.isFinite && abs($0) <= 1.5 })
    }

    @Test func phonemeIDsFollowPipersLayout() throws {
        let piper = try InstalledVoices.sharedPiper.get()
        // ^ _ h _ ə _ $ with the voice's own map.
        let map = piper.configuration.phonemeIDMap
        let ids = try #require(map["h"]?.first)
        #expect(map["^"] == [1] && map["_"] == [0] && map["$"] == [2])
        #expect(ids > 2)
        let samples = try piper.synthesize(phonemes: "həlˈoʊ")
        #expect(samples.count > 2000)
    }

    @Test func streamsOneSentenceAtATime() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        // "Yes." is shorter than the chunker's minimum, so it joins the sentence before it.
        let text = "First sentence here. Second one follows! And is there a third? Yes."
        let chunks = try await collect(StreamingSynthesizer(renderer: piper).synthesize(SynthesisRequest(text: text)))
        #expect(silentRuns(chunks).count == 2, "a pause between sentences")
        #expect(chunks.count > 5, "sentences stream in pieces: \(chunks.map(\.samples.count))")
        let sentences = chunks.flatMap(\.events).compactMap { event -> Range<Int>? in
            if case .sentence(let range, _) = event { return range }
            return nil
        }
        #expect(sentences.map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }
                == ["First sentence here.", "Second one follows!", "And is there a third? Yes."])
    }

    @Test func rateChangesDurationAndVolumeChangesLevel() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let synthesizer = StreamingSynthesizer(renderer: piper)
        let text = "Speaking at different rates changes the length."
        let normal = try await collect(synthesizer.synthesize(SynthesisRequest(text: text))).flatMap(\.samples)
        let fast = try await collect(synthesizer.synthesize(SynthesisRequest(text: text, rate: 2))).flatMap(\.samples)
        let quiet = try await collect(synthesizer.synthesize(SynthesisRequest(text: text, volume: 0.5))).flatMap(\.samples)
        let ratio = Double(fast.count) / Double(normal.count)
        #expect(ratio > 0.4 && ratio < 0.65, "rate 2 gives \(ratio) of the duration")
        #expect(quiet.count == normal.count)
        // Tolerance: the gain is exact; float rounding only.
        #expect(zip(quiet, normal).allSatisfy { abs($0 - $1 * 0.5) < 1e-6 })
    }

    @Test func ssmlBreaksAreExactAndMarksArePlaced() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let ssml = """
            <speak>Before the pause.<break time="700ms"/><mark name="middle"/>After the pause.\
            <mark name="end"/></speak>
            """
        let chunks = try await collect(StreamingSynthesizer(renderer: piper).synthesize(SynthesisRequest(text: ssml, isSSML: true)))
        // The break is exactly 0.7 s of zeros, handed out in pieces of at most a quarter second.
        #expect(silentRuns(chunks) == [Int((0.7 * 22050).rounded())])
        #expect(chunks.filter(isSilent).allSatisfy { $0.samples.count <= 22050 / 4 })
        // Marks, with their absolute offsets: "middle" where "After" starts, "end" after the last sample.
        var offset = 0
        var marks: [String: Int] = [:]
        var speechStarts: [Int] = []
        for chunk in chunks {
            for event in chunk.events {
                if case .mark(let name, let at) = event { marks[name] = offset + at }
                if case .sentence(_, let at) = event { speechStarts.append(offset + at) }
            }
            offset += chunk.samples.count
        }
        #expect(marks["middle"] == speechStarts.last)
        #expect(marks["end"] == offset)
    }

    @Test func noClicksAtJoins() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let chunks = try await collect(StreamingSynthesizer(renderer: piper).synthesize(
            SynthesisRequest(text: "One, two, three. Four five six! Seven eight nine?")))
        let audio = chunks.flatMap(\.samples)
        // Joins between utterances and pauses (pieces inside a sentence join continuous speech).
        var joins: [Int] = []
        var offset = 0
        for (chunk, next) in zip(chunks, chunks.dropFirst()) {
            offset += chunk.samples.count
            if isSilent(chunk) != isSilent(next) { joins.append(offset) }
        }
        #expect(joins.count == 4)
        let jumps = joins.map { abs(audio[$0] - audio[$0 - 1]) }
        #expect(jumps.allSatisfy { $0 < 0.01 }, "sample jumps at joins: \(jumps)")
    }

    @Test func wordBoundariesAreOrderedAndFirstIsExact() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let text = "Words are placed in time."
        let chunks = try await collect(StreamingSynthesizer(renderer: piper).synthesize(SynthesisRequest(text: text)))
        var words: [(String, Int, Bool)] = []
        var offset = 0
        for chunk in chunks {
            for case .word(let range, let at, let estimated) in chunk.events {
                words.append((String(decoding: Array(text.utf8)[range], as: UTF8.self), offset + at, estimated))
            }
            offset += chunk.samples.count
        }
        #expect(words.map(\.0) == ["Words", "are", "placed", "in", "time."])
        #expect(words.first?.1 == 0 && words.first?.2 == false)
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.1 < $1.1 && $1.2 })
    }
}

/// Whether a chunk is a piece of a pause (silence leaves in pieces of at most a quarter second).
private func isSilent(_ chunk: AudioChunk) -> Bool {
    !chunk.samples.isEmpty && chunk.samples.allSatisfy { $0 == 0 }
}

/// The lengths, in samples, of the runs of consecutive silent chunks: one run per pause.
private func silentRuns(_ chunks: [AudioChunk]) -> [Int] {
    var runs: [Int] = []
    var inRun = false
    for chunk in chunks {
        if isSilent(chunk) {
            if inRun { runs[runs.count - 1] += chunk.samples.count } else { runs.append(chunk.samples.count) }
            inRun = true
        } else if !chunk.samples.isEmpty || !chunk.events.isEmpty {
            inRun = false
        }
    }
    return runs
}
