import WarbleSpeech

/// A cloned voice as CosyVoice 3 speaks it (`VoiceConditioning.speakerPrompt`): the speaker
/// embedding (192), the prompt's speech tokens, its mel frames `[frames, 80]` (50 per second, two
/// per token) and what the prompt says.
struct CosyVoice3Prompt: Sendable, Equatable {
    var embedding: [Float]
    var tokens: [Int]
    /// `[frames, 80]`, frame-major.
    var mel: [Float]
    var melFrames: Int
    var transcript: String

    static let melChannels = 80

    init(embedding: [Float], tokens: [Int], mel: [Float], melFrames: Int, transcript: String) {
        self.embedding = embedding
        self.tokens = tokens
        self.mel = mel
        self.melFrames = melFrames
        self.transcript = transcript
    }

    /// The prompt of a voice's conditioning; a clear error for another kind or a tensor of the wrong shape.
    init(_ conditioning: VoiceConditioning?, voice: String) throws {
        guard case .speakerPrompt(let embedding, let tokens, let mel, let transcript)? = conditioning else {
            throw ModelError(.badModel, "voice '\(voice)' holds \(conditioning?.kind ?? "no") conditioning; CosyVoice 3 speaks a "
                + "speaker prompt (clone one from a clip)")
        }
        guard embedding.values.count == embedding.shape.last, !embedding.values.isEmpty else {
            throw ModelError(.badModel, "voice '\(voice)' has a speaker embedding of shape \(embedding.shape); CosyVoice 3 needs [192]")
        }
        let frames = mel.shape.count >= 2 && mel.shape.last == Self.melChannels ? mel.values.count / Self.melChannels : -1
        guard frames >= 0, mel.shape.dropLast(2).allSatisfy({ $0 == 1 }) else {
            throw ModelError(.badModel, "voice '\(voice)' has a prompt mel of shape \(mel.shape); CosyVoice 3 needs [frames, 80]")
        }
        guard tokens.allSatisfy({ (0..<CosyVoice3LanguageModel.speechTokenCount).contains($0) }) else {
            throw ModelError(.badModel, "voice '\(voice)' has prompt speech tokens outside 0..<6561")
        }
        self.init(embedding: embedding.values, tokens: tokens, mel: mel.values, melFrames: frames, transcript: transcript)
    }
}
