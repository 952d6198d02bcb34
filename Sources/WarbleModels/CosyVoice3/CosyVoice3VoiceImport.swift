import Foundation
import WarbleSpeech

/// Reads a voice saved in the seed iOS app's four files: `speaker_embedding.bin` (192 f32 LE),
/// `prompt_tokens.bin` (i64 LE), `prompt_mel.bin` (an i32 LE frame count, then frames × 80 f32 LE)
/// and `prompt_text.txt` (what the clip says, without the system prompt).
public enum CosyVoice3VoiceImport {
    public static let files = ["speaker_embedding.bin", "prompt_tokens.bin", "prompt_mel.bin", "prompt_text.txt"]

    /// The voice in `directory` as `.speakerPrompt`; a clear error for a missing file or a wrong size.
    public static func conditioning(directory: URL) throws -> VoiceConditioning {
        func read(_ name: String) throws -> Data {
            let url = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw ModelError(.badInput, "\(url.path) is missing: a CosyVoice 3 voice from the seed app is the four files \(files.joined(separator: ", "))")
            }
            return data
        }
        let embeddingData = try read("speaker_embedding.bin")
        let embeddingBytes = CosyVoice3VoiceEncoder.embeddingSize * 4
        guard embeddingData.count == embeddingBytes else {
            throw ModelError(.badInput, "speaker_embedding.bin holds \(embeddingData.count) bytes; expected \(embeddingBytes) (192 float32 values)")
        }
        let tokenData = try read("prompt_tokens.bin")
        guard tokenData.count % 8 == 0, !tokenData.isEmpty else {
            throw ModelError(.badInput, "prompt_tokens.bin holds \(tokenData.count) bytes; expected a positive multiple of 8 (int64 token ids)")
        }
        let melData = try read("prompt_mel.bin")
        guard melData.count >= 4 else {
            throw ModelError(.badInput, "prompt_mel.bin holds \(melData.count) bytes; expected an int32 frame count, then frames × 80 float32 values")
        }
        let frames = Int(Int32(littleEndian: melData.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }))
        let bins = CosyVoice3VoiceFeatures.melBins
        guard frames > 0, melData.count == 4 + frames * bins * 4 else {
            throw ModelError(.badInput, "prompt_mel.bin says \(frames) frames but holds \(melData.count) bytes; expected 4 + frames × 80 × 4 = \(4 + max(frames, 0) * bins * 4)")
        }
        let tokens = int64s(tokenData).map(Int.init)
        if let bad = tokens.first(where: { $0 < 0 || $0 >= CosyVoice3VoiceEncoder.codebookSize }) {
            throw ModelError(.badInput, "prompt_tokens.bin holds the id \(bad); speech tokens are 0..<\(CosyVoice3VoiceEncoder.codebookSize)")
        }
        guard let text = String(data: try read("prompt_text.txt"), encoding: .utf8) else {
            throw ModelError(.badInput, "prompt_text.txt is not UTF-8 text")
        }
        let transcript = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !transcript.isEmpty else {
            throw ModelError(.badInput, "prompt_text.txt is empty: CosyVoice 3 needs what the voice's clip says")
        }
        // Aligned as the authors align a clip's features (two mel frames per token).
        let count = CosyVoice3VoiceFeatures.alignedTokenCount(melFrames: frames, tokens: tokens.count)
        let embedding = floats(embeddingData)
        let mel = Array(floats(melData.dropFirst(4)).prefix(2 * count * bins))
        guard count > 0, let embeddingTensor = StoredTensor(shape: [embedding.count], values: embedding),
            let melTensor = StoredTensor(shape: [2 * count, bins], values: mel)
        else {
            throw ModelError(.badInput, "the voice has \(tokens.count) prompt tokens and \(frames) mel frames: too few to speak with")
        }
        return .speakerPrompt(
            embedding: embeddingTensor, promptTokens: Array(tokens.prefix(count)), promptMel: melTensor, transcript: transcript)
    }

    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func int64s(_ data: Data) -> [Int64] {
        data.withUnsafeBytes { raw in
            (0..<(raw.count / 8)).map { Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) }
        }
    }
}
