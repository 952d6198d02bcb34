import Foundation
import ONNXRuntime
import Testing
import WarbleAudio
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// CosyVoice 3's voice encoder against tools/cosyvoice3/make_fixtures.py (the authors' front end in
/// Python over synthetic campplus / speech tokenizer graphs with the real names and shapes).
/// Tolerances (tools/cosyvoice3/README.md): features from the golden 16/24 kHz arrays max abs < 1e-3,
/// embedding max abs < 1e-3, tokens identical; from the WAV through libsoxr, prompt mel mean abs < 5e-2
/// and speech tokens at least 90 % equal.
@Suite(.needs(fixtures: "cosyvoice3")) struct CosyVoice3VoiceEncoderTests {
    static let command = ".venv/bin/python tools/cosyvoice3/make_fixtures.py Tests/Fixtures/generated/cosyvoice3"

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture \(path) is missing: run scripts/test.sh (or \(CosyVoice3VoiceEncoderTests.command)) first" }
    }

    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/cosyvoice3")
    }()

    static func url(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    static func floats(_ relative: String) throws -> [Float] {
        CosyVoice3VoiceImport.floats(try Data(contentsOf: url(relative)))
    }

    struct Voice: Decodable {
        let transcript: String
        let speech_tokens: [Int]
        let prompt_tokens: [Int]
        let token_len: Int
        let fbank_frames: Int
        let whisper_frames: Int
        let mel_frames_full: Int
        let prompt_mel_frames: Int
    }

    static func voice() throws -> Voice { try JSONDecoder().decode(Voice.self, from: Data(contentsOf: url("golden/voice.json"))) }

    static func encoder(tokenizer: String = "repo/speech_tokenizer_v3.onnx") throws -> CosyVoice3VoiceEncoder {
        try CosyVoice3VoiceEncoder(
            modelID: "cosyvoice3-test", campplus: Session(contentsOf: url("repo/campplus.onnx")),
            speechTokenizer: Session(contentsOf: url(tokenizer)))
    }

    static func maxAbs(_ a: some Collection<Float>, _ b: some Collection<Float>) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    @Test func featuresMatchTheReference() throws {
        let voice = try Self.voice()
        let features = CosyVoice3VoiceFeatures()
        let samples16k = try Self.floats("golden/voice_16k.f32")
        let fbank = features.speakerFbank(samples16k)
        #expect(fbank.rows == voice.fbank_frames && fbank.columns == 80)
        let fbankError = Self.maxAbs(fbank.values, try Self.floats("golden/voice_fbank.f32"))
        #expect(fbankError < 1e-3, "fbank max abs \(fbankError)")

        let whisper = features.tokenizerMel(samples16k)
        #expect(whisper.rows == voice.whisper_frames && whisper.columns == 128)
        let golden = try Self.floats("golden/voice_whisper_logmel.f32")  // [128, T]
        var whisperError: Float = 0
        for r in 0..<whisper.rows { for c in 0..<128 { whisperError = max(whisperError, abs(whisper[r, c] - golden[c * whisper.rows + r])) } }
        #expect(whisperError < 1e-3, "Whisper 128-mel max abs \(whisperError)")

        let mel = features.promptMel(try Self.floats("golden/voice_24k.f32"))
        #expect(mel.rows == voice.mel_frames_full && mel.columns == 80)
        let melError = Self.maxAbs(mel.values.prefix(voice.prompt_mel_frames * 80), try Self.floats("golden/voice_prompt_mel.f32"))
        #expect(melError < 1e-3, "prompt mel max abs \(melError)")
    }

    @Test(.needsRuntime, arguments: ["repo/speech_tokenizer_v3.onnx", "variants/speech_tokenizer_v3_int32.onnx"])
    func modelsMatchTheReference(_ tokenizer: String) throws {
        let voice = try Self.voice()
        let encoder = try Self.encoder(tokenizer: tokenizer)
        let fbank = FeatureMatrix(rows: voice.fbank_frames, columns: 80, values: try Self.floats("golden/voice_fbank.f32"))
        let embedding = try encoder.embedding(fbank: fbank)
        let embeddingError = Self.maxAbs(embedding, try Self.floats("golden/voice_embedding.f32"))
        #expect(embedding.count == 192 && embeddingError < 1e-3, "embedding max abs \(embeddingError)")

        let golden = try Self.floats("golden/voice_whisper_logmel.f32")
        let frames = voice.whisper_frames
        var rows = [Float](repeating: 0, count: golden.count)
        for r in 0..<frames { for c in 0..<128 { rows[r * 128 + c] = golden[c * frames + r] } }
        let tokens = try encoder.speechTokens(mel: FeatureMatrix(rows: frames, columns: 128, values: rows))
        #expect(tokens == voice.speech_tokens)
    }

    @Test(.needsRuntime) func aClipBecomesTheReferenceVoice() async throws {
        let voice = try Self.voice()
        let clip = try SoundFile.read(contentsOf: Self.url("golden/voice_clip_44k_stereo.wav"))
        #expect(clip.channelCount == 2 && clip.sampleRate == 44100)
        let conditioning = try await Self.encoder().encode(clip, transcript: "  \(voice.transcript)\n")
        guard case .speakerPrompt(let embedding, let tokens, let mel, let transcript) = conditioning else {
            Issue.record("got \(conditioning.kind)")
            return
        }
        #expect(transcript == voice.transcript)
        #expect(embedding.shape == [192])
        #expect(mel.shape == [2 * tokens.count, 80])
        #expect(abs(tokens.count - voice.token_len) <= 1, "\(tokens.count) tokens, reference \(voice.token_len)")
        let same = zip(tokens, voice.prompt_tokens).filter { $0 == $1 }.count
        #expect(Double(same) >= 0.9 * Double(voice.token_len), "\(same) of \(voice.token_len) tokens equal")
        let goldenMel = try Self.floats("golden/voice_prompt_mel.f32")
        let n = min(mel.values.count, goldenMel.count)
        let meanAbs = zip(mel.values.prefix(n), goldenMel.prefix(n)).reduce(Float(0)) { $0 + abs($1.0 - $1.1) } / Float(n)
        #expect(meanAbs < 5e-2, "prompt mel mean abs \(meanAbs)")
        let goldenEmbedding = try Self.floats("golden/voice_embedding.f32")
        let embeddingError = Self.maxAbs(embedding.values, goldenEmbedding)
        #expect(embeddingError < 5e-2, "embedding max abs \(embeddingError) through the resampler")
    }

    @Test(.needsRuntime) func clearErrorsForWhatCannotBeCloned() async throws {
        let encoder = try Self.encoder()
        #expect(encoder.needsTranscript && encoder.clipSeconds == 2...30)
        let speech = AudioBuffer(mono: (0..<48000).map { Float(sin(Double($0) * 0.05)) * 0.3 }, sampleRate: 16000)
        for transcript in [nil, "", "  \n"] {
            await Self.expectBadInput("transcript") { _ = try await encoder.encode(speech, transcript: transcript) }
        }
        let short = AudioBuffer(mono: [Float](repeating: 0.1, count: 16000), sampleRate: 16000)
        await Self.expectBadInput("longer") { _ = try await encoder.encode(short, transcript: "hello") }
        let long = AudioBuffer(mono: [Float](repeating: 0.1, count: 16000 * 31), sampleRate: 16000)
        await Self.expectBadInput("shorter") { _ = try await encoder.encode(long, transcript: "hello") }
        await Self.expectBadInput("empty") { _ = try await encoder.encode(AudioBuffer(mono: [], sampleRate: 16000), transcript: "hello") }
    }

    static func expectBadInput(_ word: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("no error (expected one saying \"\(word)\")")
        } catch let error as ModelError {
            #expect(error.kind == .badInput)
            #expect(error.message.contains(word), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theSeedAppsFilesImport() throws {
        let voice = try Self.voice()
        let conditioning = try CosyVoice3VoiceImport.conditioning(directory: Self.url("seedapp"))
        guard case .speakerPrompt(let embedding, let tokens, let mel, let transcript) = conditioning else {
            Issue.record("got \(conditioning.kind)")
            return
        }
        #expect(transcript == voice.transcript)
        #expect(tokens == voice.prompt_tokens)
        let goldenEmbedding = try Self.floats("golden/voice_embedding.f32")
        let goldenMel = try Self.floats("golden/voice_prompt_mel.f32")
        #expect(embedding.shape == [192] && embedding.values == goldenEmbedding)
        #expect(mel.shape == [voice.prompt_mel_frames, 80] && mel.values == goldenMel)
    }

    @Test(arguments: [
        ("speaker_embedding.bin", 100, "768"), ("prompt_tokens.bin", 7, "multiple of 8"),
        ("prompt_mel.bin", 2, "int32 frame count"), ("prompt_mel.bin", 1000, "frames"), ("prompt_text.txt", 0, "empty"),
        ("prompt_tokens.bin", -1, "missing"),
    ])
    func wrongSeedAppFilesAreClearErrors(_ file: String, _ keep: Int, _ word: String) throws {
        let source = try Self.url("seedapp")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("cosy-seedapp-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let target = copy.appendingPathComponent(file)
        if keep < 0 {
            try FileManager.default.removeItem(at: target)
        } else {
            try Data(contentsOf: target).prefix(keep).write(to: target)
        }
        do {
            _ = try CosyVoice3VoiceImport.conditioning(directory: copy)
            Issue.record("\(file) cut to \(keep) bytes imported")
        } catch let error as ModelError {
            #expect(error.kind == .badInput)
            #expect(error.message.contains(word), "\(error.message)")
        }
    }
}
