import Foundation
import Testing
import WarbleAudio
import WarbleSpeech
import WarbleText
@testable import WarbleModels
import WarbleTestSupport

/// Chatterbox Turbo on tools/chatterbox's synthetic graphs (the real names, dtypes and sidecars; 3
/// layers, 4 heads, width 64, so a hard-coded layout fails) against its Python reference of the
/// model card's loop and the authors' code: identical tokens (greedy, and sampled with the same
/// draws), conditioning from the golden clip, decoder audio within 1e-5.
@Suite(.needs(fixtures: "chatterbox"), .needsRuntime) struct ChatterboxTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/chatterbox")
    }()
    static var repo: URL { root.appendingPathComponent("repo") }
    static var golden: URL { root.appendingPathComponent("golden") }

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: run .venv/bin/python tools/chatterbox/make_fixtures.py Tests/Fixtures/generated/chatterbox" }
    }

    static func data(_ name: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: golden.appendingPathComponent(name).path) else {
            Issue.record(Missing(path: golden.appendingPathComponent(name).path))
            throw Missing(path: name)
        }
        return data
    }

    static func floats(_ name: String) throws -> [Float] {
        let data = try data(name)
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func int64s(_ name: String) throws -> [Int] {
        let data = try data(name)
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 8)).map { Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self))) }
        }
    }

    struct Case: Decodable {
        let name: String
        let text_ids: [Int]
        let mode: String
        let seed: UInt64?
        let generated: [Int]
        let stopped: Bool
        let speech_tokens: [Int]
    }

    struct LM: Decodable { let cases: [Case]; let prompt_tokens: [Int] }

    static func cases(_ variant: String) throws -> LM {
        try JSONDecoder().decode(LM.self, from: try data("lm_\(variant).json"))
    }

    static func parts(_ variant: String) throws -> (ChatterboxLanguageModel, ChatterboxCodec) {
        let files = try ChatterboxFiles.locate(in: repo, variant: variant)
        return (try ChatterboxLanguageModel(files: files, options: .init(intraOpThreads: 1)),
                try ChatterboxCodec(files: files, options: .init(intraOpThreads: 1)))
    }

    /// The golden voice's conditioning (the speech encoder's outputs for the normalised golden clip).
    static func voice(_ variant: String) throws -> ChatterboxVoice {
        let features = try floats("voice_\(variant)_audio_features.f32")
        let speaker = try floats("voice_\(variant)_speaker_features.f32")
        return ChatterboxVoice(features: features, featureRows: features.count / 64, promptTokens: try int64s("voice_\(variant)_audio_tokens.i64"),
                               embedding: try floats("voice_\(variant)_speaker_embeddings.f32"), speakerFeatures: speaker,
                               featureFrames: speaker.count / 80)
    }

    /// The text ids are what `tokenizer(text)` gives with its defaults (the model card's call): the fixture's
    /// ByteLevel post-processor adds nothing, a TemplateProcessing one puts BOS/EOS around the text.
    @Test func textIDsFollowTheTokenizersPostProcessor() throws {
        struct Text: Decodable {
            struct Case: Decodable { let text: String; let ids: [Int]; let plain_ids: [Int] }
            let template: [Case]
        }
        let text = try JSONDecoder().decode(Text.self, from: try Self.data("text.json"))
        let plain = try BPETokenizer(tokenizerJSON: Self.repo.appendingPathComponent("tokenizer.json"))
        let template = try BPETokenizer(tokenizerJSON: Self.golden.appendingPathComponent("tokenizer_template.json"))
        #expect(text.template.count >= 9)
        for c in text.template {
            let plainIDs = try ChatterboxModel.textIDs(c.text, tokenizer: plain)
            let templateIDs = try ChatterboxModel.textIDs(c.text, tokenizer: template)
            #expect(plainIDs == c.plain_ids, "\(c.text): \(plainIDs)")
            #expect(templateIDs == c.ids, "\(c.text): \(templateIDs)")
        }
    }

    @Test(arguments: ["fp32", "q4f16"])
    func theLayoutIsReadFromTheSessions(variant: String) throws {
        let (lm, _) = try Self.parts(variant)
        #expect(lm.layers == 3 && lm.heads == 4 && lm.headSize == 16 && lm.width == 64)
        let cache = try lm.emptyCache()
        #expect(cache.elementTypes.count == 6 && Set(cache.elementTypes) == [variant == "fp32" ? .float32 : .float16])
        // Files: the variant's, with a clear error for one that is not there.
        let files = try ChatterboxFiles.locate(in: Self.repo, variant: variant)
        #expect(files.languageModel.lastPathComponent == "language_model\(variant == "fp32" ? "" : "_q4f16").onnx")
        #expect { try ChatterboxFiles.locate(in: Self.repo, variant: "fp16") } throws: {
            "\($0)".contains("language_model_fp16.onnx") || "\($0)".contains("speech_encoder_fp16.onnx")
        }
    }

    @Test(arguments: ["fp32", "q4f16"])
    func tokensEqualTheReferences(variant: String) throws {
        let (lm, _) = try Self.parts(variant)
        let voice = try Self.voice(variant)
        let golden = try Self.cases(variant)
        #expect(golden.prompt_tokens == voice.promptTokens)
        #expect(golden.cases.count == 5)
        for c in golden.cases {
            let sampler = ChatterboxSampler(mode: c.mode == "greedy" ? .greedy : .reference)
            var generation = ChatterboxTokenGeneration(model: lm, features: voice.features, featureRows: voice.featureRows, text: c.text_ids,
                                                       sampler: sampler, seed: c.seed ?? 0)
            let speech = try generation.all(cancel: CancellationToken())
            #expect(generation.written == c.generated, "\(variant) \(c.name)")
            #expect(speech == c.speech_tokens && generation.stopped == c.stopped, "\(variant) \(c.name)")
            #expect(!generation.holdsCache)
        }
    }

    @Test(arguments: ["fp32", "q4f16"])
    func theDecoderMatchesTheReference(variant: String) throws {
        let (_, codec) = try Self.parts(variant)
        let voice = try Self.voice(variant)
        let golden = try Self.cases(variant)
        for (name, file) in [("long_greedy", "wave_\(variant)_long_greedy.f32"), ("tagged_sampled", "wave_\(variant)_tagged_sampled.f32")] {
            let speech = try #require(golden.cases.first { $0.name == name }).speech_tokens
            let audio = try codec.decode(speech + Array(repeating: ChatterboxCodec.silence, count: 3), voice: voice, options: nil)
            let reference = try Self.floats(file)
            #expect(audio.count == (speech.count + 3) * 960 && audio.count == reference.count)
            let diff = zip(audio, reference).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
            #expect(diff < 1e-5, "\(variant) \(name): max abs \(diff)")
        }
    }

    /// The golden clip through our loudness (libebur128) and the speech encoder: the tokens and the
    /// level-free outputs as the reference's. libebur128 and the reference's pyloudnorm measure this
    /// clip 0.08 dB apart (measured), which moves the level-dependent speaker features by 2·ln of the
    /// gain ratio: 0.019; stated tolerance 0.1 dB and 0.03.
    @Test(arguments: ["fp32", "q4f16"])
    func aClipBecomesTheReferencesConditioning(variant: String) throws {
        let (_, codec) = try Self.parts(variant)
        let clip = try SoundFile.read(contentsOf: Self.golden.appendingPathComponent("voice_24k_mono.wav"))
        let prepared = try ChatterboxCodec.prepare(clip)
        let gain = Double(prepared[1000] / clip.channels[0][1000])
        struct Voice: Decodable { let gain: Double }
        let reference = try JSONDecoder().decode(Voice.self, from: try Self.data("voice.json")).gain
        #expect(abs(20 * log10(gain / reference)) < 0.1, "gain \(gain) against the reference's \(reference)")
        let loudness = try Loudness.integrated(AudioBuffer(mono: prepared, sampleRate: 24_000))
        #expect(abs(loudness - -27) < 0.02, "normalised to \(loudness) LUFS")
        let voice = try codec.encode(prepared, options: nil)
        let golden = try Self.voice(variant)
        #expect(voice.promptTokens == golden.promptTokens && voice.featureRows == golden.featureRows)
        func diff(_ a: [Float], _ b: [Float]) -> Float { a.count == b.count ? zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) } : .infinity }
        #expect(diff(voice.features, golden.features) < 1e-4)
        #expect(diff(voice.embedding, golden.embedding) < 1e-4)
        #expect(diff(voice.speakerFeatures, golden.speakerFeatures) < 0.03)
        // The profile form round-trips.
        #expect(try ChatterboxVoice(voice.conditioning, voice: "v") == voice)
    }

    /// A 25 s clip is cut as the authors cut it: the language model's conditioning from the first 15 s,
    /// the decoder's from the first 10 s (250 prompt tokens), as the reference's `encode_voice_cut`.
    @Test(arguments: ["fp32", "q4f16"])
    func aLongClipIsCutAsTheAuthorsCutIt(variant: String) throws {
        let (_, codec) = try Self.parts(variant)
        let clip = try SoundFile.read(contentsOf: Self.golden.appendingPathComponent("voice_long_24k_mono.wav"))
        #expect(clip.duration > 24)
        let voice = try codec.encode(try ChatterboxCodec.prepare(clip), options: nil)
        let features = try Self.floats("voice_long_\(variant)_audio_features.f32")
        let embedding = try Self.floats("voice_long_\(variant)_speaker_embeddings.f32")
        let speaker = try Self.floats("voice_long_\(variant)_speaker_features.f32")
        #expect(voice.promptTokens == (try Self.int64s("voice_long_\(variant)_audio_tokens.i64")))
        #expect(voice.promptTokens.count == 250 && voice.featureRows == 376 && voice.featureFrames == 500)
        func diff(_ a: [Float], _ b: [Float]) -> Float { a.count == b.count ? zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) } : .infinity }
        #expect(diff(voice.features, features) < 1e-4)
        #expect(diff(voice.embedding, embedding) < 1e-4)
        #expect(diff(voice.speakerFeatures, speaker) < 0.03)
        // Fed whole, the speaker embedding would come from 15 s, not the decoder's 10 s.
        let whole = try codec.encodeOnce(try ChatterboxCodec.prepare(clip), options: nil)
        #expect(diff(whole.embedding, embedding) > 1e-3)
    }

    @Test func samplingKeepsTiesAndAppliesThePenaltyLast() {
        let sampler = ChatterboxSampler(mode: .sampling(temperature: 1, topK: 2, topP: 1))
        // Ties with the k-th score are kept: three tokens survive top-k 2.
        let logits: [Float] = [0, 2, 2, 2, -1]
        var seen = Set<Int>()
        for u in stride(from: 0.0, to: 1.0, by: 0.05) { seen.insert(sampler.choose(logits, penalised: [], uniform: { u })) }
        #expect(seen == [1, 2, 3])
        // The penalty comes after top-p: a penalised favourite stays a candidate, only less likely.
        let nucleus = ChatterboxSampler(mode: .sampling(temperature: 1, topK: 1000, topP: 0.5))
        #expect(nucleus.choose([5, 0, 0], penalised: [0], uniform: { 0.99 }) == 0)
        #expect(ChatterboxSampler().choose([1, 0.9], penalised: [0], uniform: { 0 }) == 1, "greedy: 1/1.2 < 0.9")
    }

    @Test func cancellingDropsTheCache() throws {
        let (lm, _) = try Self.parts("fp32")
        let voice = try Self.voice("fp32")
        let golden = try Self.cases("fp32")
        let forever = try #require(golden.cases.first { $0.name == "forever_greedy" })
        var generation = ChatterboxTokenGeneration(model: lm, features: voice.features, featureRows: voice.featureRows,
                                                   text: forever.text_ids, sampler: .init(), seed: 0)
        let cancel = CancellationToken()
        for _ in 0..<5 { _ = try generation.next(cancel: cancel) }
        #expect(generation.holdsCache)
        cancel.cancel()
        #expect(throws: CancellationError.self) { try generation.next(cancel: cancel) }
        #expect(!generation.holdsCache && generation.isFinished)
    }
}

extension ChatterboxTests {
    /// The seed's failure (2 GB → 16 GB over 1,024 steps) cannot happen: each step's presents replace
    /// the cache. Three generations of the full 1,024 steps (the text holds the fixture's marker, so
    /// STOP never wins): the third adds almost nothing to resident memory, and each ends without a cache.
    @Test func memoryStaysFlatOverThreeGenerationsOf1024Steps() throws {
        let (lm, _) = try Self.parts("fp32")
        let voice = try Self.voice("fp32")
        let forever = try #require(try Self.cases("fp32").cases.first { $0.name == "forever_greedy" })
        func generate() throws -> Int {
            var generation = ChatterboxTokenGeneration(model: lm, features: voice.features, featureRows: voice.featureRows,
                                                       text: forever.text_ids, sampler: .init(), seed: 0)
            let speech = try generation.all(cancel: CancellationToken())
            #expect(speech.count == 1024 && !generation.stopped && !generation.holdsCache)
            return try CosyVoice3MemoryTests.residentBytes()
        }
        let first = try generate(), second = try generate(), third = try generate()
        print("Chatterbox decode memory: +\((second - first) >> 10) KiB, then +\((third - second) >> 10) KiB over 1,024 steps")
        #expect(third - second < 4 << 20, "the third 1,024 steps grew resident memory by \((third - second) >> 10) KiB")
    }
}
