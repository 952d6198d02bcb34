import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// `Engine.addVoice` with the installed Kokoro, Silero VAD and speaker embedder: a Kokoro voice found
/// from a clip of the Piper voice (a speaker Kokoro does not have) is kept, listed and spoken; the
/// same seed and candidate count give the same voice; an interrupted search resumes to the voice an
/// uninterrupted one finds.
@Suite(.needs(model: "kokoro-v1.0-int8"), .needs(model: "silero-vad"), .needs(model: "speaker-dvector"),
       .needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized)
struct VoiceCloningTests {
    static let candidates = 6

    func engine() throws -> Engine {
        try InstalledVoices.isolatedEngine("cloning", models: ["kokoro-v1.0-int8", "silero-vad", "speaker-dvector"], threads: 2)
    }

    static func clip() async throws -> Data {
        let speech = try await CloneClipTests.speech()
        return try SoundFile.encode(speech, format: .wav16)
    }

    func request(_ name: String, clip: Data, state: URL? = nil) -> VoiceCloneRequest {
        VoiceCloneRequest(name: name, clip: clip, clipName: "joe.wav", model: "kokoro", consent: "a synthetic voice",
                          search: .init(budget: 3600, maximumCandidates: Self.candidates, seed: 9, stateFile: state), keepStock: true)
    }

    @Test func aKokoroVoiceFoundFromAClipIsKeptListedSpokenAndFoundAgainWhenResumed() async throws {
        let engine = try engine()
        let clip = try await Self.clip()
        let events = EventLog()
        let result = try await engine.addVoice(request("joe-like", clip: clip)) { events.add($0) }
        let search = try #require(result.search)
        // The five stock voices, one generation of eight (to reach 6), then seven finalists (the five stock voices, the mean, the leader).
        #expect(search.candidates == 5 + 8 + 7 && search.dimensions == 4 && search.startVoice.hasPrefix("kokoro-"))
        // The result is chosen on the final texts, the start among the choices: never worse than it.
        #expect(search.similarity >= search.startSimilarity && search.similarity > 0 && search.similarity < 1)
        #expect(events.kinds.first == "clip" && events.kinds.contains("searching"))

        let profile = result.profile
        #expect(profile.model == "kokoro-v1.0-int8" && profile.family == "kokoro" && profile.language == "en-US")
        let source = try #require(profile.source)
        #expect(source.clipSHA256 == SHA256.hex(clip) && source.consent == "a synthetic voice")
        let embedding = try #require(source.speakerEmbedding)
        #expect(embedding.count == 256 && abs(embedding.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        guard case .styleTable(let table) = profile.conditioning else {
            Issue.record("a Kokoro voice holds a style table, not \(profile.conditioning.kind)")
            return
        }
        #expect(table.shape == [510, 256])

        #expect(await engine.voices.contains { $0.id == "joe-like" })
        let audio = try await collect(engine.synthesize(SynthesisRequest(text: "A found voice speaks.", voice: "joe-like")))
        #expect(audio.first?.sampleRate == 24000 && audio.flatMap(\.samples).count > 24000 / 2)

        let check = try await engine.checkVoice("joe-like", sentences: [SearchTexts.heldOut[0]])
        #expect(check.voice.voice == "joe-like" && check.stock.count == 5)
        #expect(check.stock.map(\.similarity) == check.stock.map(\.similarity).sorted(by: >))
        #expect(check.stock.allSatisfy { $0.voice.hasPrefix("kokoro-") })

        // A taken name and a stock voice's name are refused, also by an engine that has listed nothing
        // yet (a command run afresh): a library voice is never mistaken for a stock one.
        for fresh in [engine, Engine(store: engine.store, phonemizer: EspeakPhonemizer())] {
            await #expect { try await fresh.addVoice(self.request("joe-like", clip: clip)) } throws: {
                "\($0)".contains("already has a voice 'joe-like'")
            }
            await #expect { try await fresh.addVoice(self.request("kokoro-jm_kumo", clip: clip)) } throws: {
                "\($0)".contains("name of a stock voice")
            }
        }

        // The same seed and candidate count give the same voice, also when the search is interrupted and
        // resumed (one search less than a test of its own for it: the whole search is the one above).
        try await resumedSearchFindsWhatAWholeOneDoes(whole: result, clip: clip)
    }

    func resumedSearchFindsWhatAWholeOneDoes(whole: VoiceCloneResult, clip: Data) async throws {
        // Interrupted as soon as the start voice is chosen, again once the first generation is saved,
        // and resumed each time from the state file.
        let engine = try engine()
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("warble-search-\(UUID().uuidString).json")
        for stopAt in [0, 1] {
            let cancel = CancellationToken()
            await #expect(throws: (any Error).self) {
                try await engine.addVoice(self.request("resumed", clip: clip, state: state), cancel: cancel) { event in
                    if case .searching(let progress) = event, progress.generation >= stopAt { cancel.cancel() }
                }
            }
            #expect(FileManager.default.fileExists(atPath: state.path))
            #expect(engine.library.snapshot().profile("resumed") == nil)
        }
        let resumed = try await engine.addVoice(request("resumed", clip: clip, state: state))
        #expect(resumed.search?.resumed == true && !FileManager.default.fileExists(atPath: state.path))

        guard case .styleTable(let a) = whole.profile.conditioning, case .styleTable(let b) = resumed.profile.conditioning else {
            Issue.record("Kokoro voices hold style tables")
            return
        }
        #expect(a == b)
        #expect(whole.search?.similarity == resumed.search?.similarity)
    }
}

/// The kinds of clone events seen, in order.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []

    func add(_ event: VoiceCloneEvent) {
        let kind = switch event {
        case .clip: "clip"
        case .transcript: "transcript"
        case .searchStarted: "searchStarted"
        case .searching: "searching"
        }
        lock.withLock { seen.append(kind) }
    }

    var kinds: [String] { lock.withLock { seen } }
}
