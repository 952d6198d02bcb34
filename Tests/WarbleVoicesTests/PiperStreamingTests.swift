import WarbleSpeech
import Foundation
import ONNXRuntime
import Testing
import WarbleEngine
@testable import WarbleModels
import WarblePhonemes
import WarbleTestSupport

/// Piper decodes each sentence in windows: a request's first audio is out early, no window is wider
/// than the largest one, and the pieces join into exactly what one-shot decoding gives.
@Suite(.needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized) struct PiperStreamingTests {
    static let sentence = {
        var utterance = Utterance(
            text: "Streaming inside a sentence starts the audio long before the whole sentence has been decoded, "
                + "and the listener never hears the difference.",
            language: "en-us", sourceRange: 0..<10, words: [0..<10], endsSentence: true)
        utterance.opensRequest = true
        return utterance
    }()

    @Test func windowsJoinIntoOneShotDecoding() throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let split = try #require(piper.split, "the set-up splits the voice at its decoder input")
        #expect(split.hopSamples == 256)
        #expect(split.contextFrames >= 11, "derived from the decoder's receptive field (about ±11 frames)")
        let cancel = CancellationToken()
        let rendering = try piper.begin(Self.sentence, voice: RenderVoice(id: piper.defaultVoice), rate: 1, cancel: cancel)
        var pieces: [[Float]] = []
        while !rendering.isFinished { pieces.append(try rendering.nextPiece(cancel: cancel)) }
        let windowed = pieces.flatMap { $0 }
        #expect(pieces.count >= 2, "growing windows: \(pieces.map(\.count))")
        #expect(pieces.first?.count == 32 * 256)
        #expect(windowed.count == rendering.totalSamples)

        let phonemes = try EspeakPhonemizer().phonemize(Self.sentence.text, language: "en-us")
        let oneShot = try piper.synthesize(phonemes: phonemes)
        #expect(oneShot.count == windowed.count)
        let difference = zip(oneShot, windowed).map { abs($0 - $1) }.max() ?? 1
        // Tolerance: float noise of differently sized convolutions; 1e-4 is far below audibility (−80 dB).
        #expect(difference < 1e-4, "max abs difference windowed vs one-shot: \(difference)")
    }

    @Test func laterSentencesUseEvenWindowsNoWiderThanTheLargest() throws {
        let piper = try InstalledVoices.sharedPiper.get()
        var long = Self.sentence
        long.opensRequest = false
        long.text = Array(repeating: long.text, count: 3).joined(separator: " ")
        let cancel = CancellationToken()
        let rendering = try piper.begin(long, voice: RenderVoice(id: piper.defaultVoice), rate: 1, cancel: cancel)
        var pieces: [[Float]] = []
        while !rendering.isFinished { pieces.append(try rendering.nextPiece(cancel: cancel)) }
        let largest = PiperWindowedRendering.maximumWindow * 256
        #expect(rendering.totalSamples > 2 * largest, "the test sentence needs three windows or more")
        #expect(pieces.allSatisfy { $0.count <= largest }, "\(pieces.map(\.count))")
        // Shared out evenly: no sliver at the end.
        let sizes = pieces.map(\.count)
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 256, "\(sizes)")

        let phonemes = try EspeakPhonemizer().phonemize(long.text, language: "en-us")
        let oneShot = try piper.synthesize(phonemes: phonemes)
        let windowed = pieces.flatMap { $0 }
        #expect(oneShot.count == windowed.count)
        // Tolerance as above.
        #expect((zip(oneShot, windowed).map { abs($0 - $1) }.max() ?? 1) < 1e-4)
    }

    @Test func theDecoderIsPrimedOnlyBeforeTheCountedWideWindow() throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let split = try #require(piper.split)
        let decoder = try #require(piper.decoder)
        let priming = PiperDecoderPriming(decoder: decoder, split: split, afterWindows: 3)
        try priming.willDecodeWideWindow()
        try priming.willDecodeWideWindow()
        #expect(!priming.isPrimed, "a short text never pays the priming run")
        try priming.willDecodeWideWindow()
        #expect(priming.isPrimed)
        try priming.willDecodeWideWindow()
        #expect(priming.isPrimed)
    }

    @Test func aFastStartedEncoderIsSwappedForTheSequentialOneWithTheSameOutput() throws {
        let model = try InstalledVoices.model("piper-en_US-joe-medium")
        let split = try #require(try InstalledVoices.sharedPiper.get().split)
        let url = model.directory.appendingPathComponent(split.encoder)
        let slot = try PiperEncoderSlot(url: url, options: .init(intraOpThreads: 1), fastStart: true)
        slot.waitUntilLoaded()
        #expect(!slot.isLasting, "nothing is loaded before a run")
        _ = slot.sessionForRun()
        slot.waitUntilLoaded()
        #expect(!slot.isLasting, "a one-sentence command never loads the sequential session")
        _ = slot.sessionForRun()
        slot.waitUntilLoaded()
        #expect(slot.isLasting, "the sequential session replaces the parallel one: \(String(describing: slot.loadError))")
        #expect(slot.loadError == nil)
        #expect(try PiperEncoderSlot(url: url, options: .init(intraOpThreads: 1), fastStart: false).isLasting)

        // The parallel executor gives the sequential one's latent (noise scales 0: deterministic).
        let ids: [Int64] = [1, 0, 20, 0, 61, 0, 14, 0, 120, 0, 25, 0, 3, 0, 2]
        let feeds = [
            "input": try Tensor(ids, shape: [1, ids.count]), "input_lengths": try Tensor([Int64(ids.count)], shape: [1]),
            "scales": try Tensor([Float(0), 1, 0], shape: [3]),
        ]
        var parallel = SessionOptions(intraOpThreads: 1)
        (parallel.parallelExecution, parallel.interOpThreads) = (true, 2)
        let a = try Session(contentsOf: url, options: parallel).run(feeds, outputs: [split.latent]).tensors[0]
        let b = try slot.current.run(feeds, outputs: [split.latent]).tensors[0]
        #expect(a.shape == b.shape)
        let (x, y) = (try a.scalars(as: Float.self), try b.scalars(as: Float.self))
        // Tolerance: the same kernels on the same inputs; only the order of independent nodes differs.
        #expect((zip(x, y).map { abs($0 - $1) }.max() ?? 1) <= 1e-6)
    }

    @Test func theFamilyStartsFastOnlyWhenTheEngineSparesCores() throws {
        let model = try InstalledVoices.model("piper-en_US-joe-medium")
        let files = ModelFiles(manifest: model.manifest, directory: model.directory)
        let configuration = try ModelConfigurationReader.decode(PiperModelConfiguration.self, from: model.manifest)
        for spares in [false, true] {
            let context = FamilyContext(phonemizer: EspeakPhonemizer(), sessionOptions: .init(intraOpThreads: 1), sparesCores: spares)
            let voice = try #require(try PiperFamily().load(files, configuration: configuration, context: context).renderer as? PiperVoice)
            let slot = try #require(voice.encoderSlot)
            // Sparing cores on a machine of two or more: the parallel session first, nothing loaded yet.
            #expect(slot.isLasting == !(spares && PiperEncoderSlot.fastStartByDefault), "spares cores: \(spares)")
        }
    }

    @Test func splitVoiceEqualsTheWholeModel() throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let model = try InstalledVoices.model("piper-en_US-joe-medium")
        let whole = try PiperVoice(directory: model.directory, manifest: model.manifest, phonemizer: EspeakPhonemizer(),
                                   sessionOptions: .init(intraOpThreads: 2), noiseScale: 0, noiseW: 0, useSplit: false)
        #expect(whole.split == nil)
        let phonemes = "ðɪs ɪz ɐ tˈɛst ʌvðə spl̩ˈɪt vˈɔɪs."
        let a = try piper.synthesize(phonemes: phonemes)
        let b = try whole.synthesize(phonemes: phonemes)
        #expect(a.count == b.count)
        // Tolerance as above.
        #expect((zip(a, b).map { abs($0 - $1) }.max() ?? 1) < 1e-4)
    }

    @Test func marksAndWordsKeepTheirOffsetsAcrossPieces() async throws {
        let piper = try InstalledVoices.sharedPiper.get()
        let text = "<speak>This sentence is long enough to be decoded in several windows, one after another, "
            + "<mark name='inside'/>while the marks and the words keep their places in the audio.</speak>"
        let chunks = try await collect(StreamingSynthesizer(renderer: piper).synthesize(SynthesisRequest(text: text, isSSML: true)))
        var offset = 0
        var words: [Int] = []
        var marks: [Int] = []
        for chunk in chunks {
            for event in chunk.events {
                #expect(event.sampleOffset >= 0 && event.sampleOffset <= chunk.samples.count)
                if case .word(_, let at, _) = event { words.append(offset + at) }
                if case .mark(_, let at) = event { marks.append(offset + at) }
            }
            offset += chunk.samples.count
        }
        #expect(words == words.sorted())
        #expect(words.count == 26, "every word of the sentence has a boundary")
        #expect(marks.count == 1)
    }
}

@Suite struct FirstChunkTests {
    @Test func kokoroStartsOnAShortFirstPhraseWithTheSameWords() throws {
        var planner = SpeechPlanner(language: "en-us", chunkLimit: .characters(250))
        planner.firstChunkCharacters = 80
        let text = "When the first sentence of a request is long, with clauses and commas, Kokoro starts on its first "
            + "phrase alone. The second sentence stays whole."
        let utterances = try planner.plan(text, isSSML: false).compactMap { item -> Utterance? in
            if case .utterance(let u) = item { return u }
            return nil
        }
        #expect(utterances.count == 3)
        #expect(utterances[0].text == "When the first sentence of a request is long,")
        #expect(utterances[0].endsSentence == false)
        let words = utterances.map(\.text).joined(separator: " ").split(separator: " ")
        #expect(words == text.split(separator: " "), "no change in the words spoken")
        #expect(utterances[0].sourceRange.upperBound <= utterances[1].sourceRange.lowerBound)
    }

    @Test func aShortFirstSentenceIsLeftWhole() throws {
        var planner = SpeechPlanner(language: "en-us", chunkLimit: .characters(250))
        planner.firstChunkCharacters = 80
        let items = try planner.plan("A first sentence that is short. Then another one follows it.", isSSML: false)
        #expect(items.count == 3, "utterance, pause, utterance: \(items)")
    }
}
