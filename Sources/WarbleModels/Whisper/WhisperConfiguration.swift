import WarbleSpeech
import Foundation

/// The `config` block of an installed Whisper model's `manifest.json` (written by
/// `tools/whisper/convert_ct2.py`): sizes, special token ids, suppression lists and languages.
public struct WhisperConfiguration: Sendable, Hashable, Decodable {
    public struct SpecialTokens: Sendable, Hashable, Decodable {
        public var eot: Int
        public var sot: Int
        public var translate: Int
        public var transcribe: Int
        public var sotPrevious: Int
        public var noSpeech: Int
        public var noTimestamps: Int
        public var timestampBegin: Int

        enum CodingKeys: String, CodingKey {
            case eot, sot, translate, transcribe
            case sotPrevious = "sot_prev"
            case noSpeech = "no_speech"
            case noTimestamps = "notimestamps"
            case timestampBegin = "timestamp_begin"
        }
    }

    public var melCount: Int
    public var vocabularySize: Int
    public var audioContext: Int
    public var frames: Int
    public var textContext: Int
    public var decoderLayers: Int
    public var decoderHeads: Int
    public var headDimension: Int
    public var multilingual: Bool
    public var specialTokens: SpecialTokens
    public var suppressIDs: [Int]
    public var suppressIDsBegin: [Int]
    public var languageIDs: [Int]
    public var languageCodes: [String]
    /// The cross-attention heads whose attention follows the words in time ([decoder layer, head]
    /// pairs, from the model's config.json): what word timestamps are computed from.
    public var alignmentHeads: [AlignmentHead]

    public struct AlignmentHead: Sendable, Hashable {
        public var layer: Int
        public var head: Int
    }

    enum CodingKeys: String, CodingKey {
        case melCount = "n_mels"
        case vocabularySize = "n_vocab"
        case audioContext = "n_audio_ctx"
        case frames = "n_frames"
        case textContext = "n_text_ctx"
        case decoderLayers = "decoder_layers"
        case decoderHeads = "decoder_heads"
        case headDimension = "head_dim"
        case multilingual
        case specialTokens = "special_tokens"
        case suppressIDs = "suppress_ids"
        case suppressIDsBegin = "suppress_ids_begin"
        case languageIDs = "lang_ids"
        case languageCodes = "lang_codes"
        case alignmentHeads = "alignment_heads"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        melCount = try c.decode(Int.self, forKey: .melCount)
        vocabularySize = try c.decode(Int.self, forKey: .vocabularySize)
        audioContext = try c.decode(Int.self, forKey: .audioContext)
        frames = try c.decode(Int.self, forKey: .frames)
        textContext = try c.decode(Int.self, forKey: .textContext)
        decoderLayers = try c.decode(Int.self, forKey: .decoderLayers)
        decoderHeads = try c.decode(Int.self, forKey: .decoderHeads)
        headDimension = try c.decode(Int.self, forKey: .headDimension)
        multilingual = try c.decode(Bool.self, forKey: .multilingual)
        specialTokens = try c.decode(SpecialTokens.self, forKey: .specialTokens)
        suppressIDs = try c.decode([Int].self, forKey: .suppressIDs)
        suppressIDsBegin = try c.decode([Int].self, forKey: .suppressIDsBegin)
        languageIDs = try c.decodeIfPresent([Int].self, forKey: .languageIDs) ?? []
        languageCodes = try c.decodeIfPresent([String].self, forKey: .languageCodes) ?? []
        let pairs = try c.decodeIfPresent([[Int]].self, forKey: .alignmentHeads) ?? []
        let (layers, heads) = (decoderLayers, decoderHeads)
        guard pairs.allSatisfy({ $0.count == 2 && (0..<layers).contains($0[0]) && (0..<heads).contains($0[1]) })
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .alignmentHeads, in: c,
                debugDescription: "alignment_heads must be [layer, head] pairs within \(decoderLayers) layers and \(decoderHeads) heads")
        }
        alignmentHeads = pairs.map { AlignmentHead(layer: $0[0], head: $0[1]) }
        if multilingual, languageIDs.count != languageCodes.count || languageIDs.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .languageIDs, in: c,
                debugDescription: "lang_ids has \(languageIDs.count) entries, lang_codes \(languageCodes.count)")
        }
    }

    /// The last timestamp token (`<|30.00|>`).
    public var timestampEnd: Int { vocabularySize - 1 }

    /// Seconds per timestamp token step.
    public static let timePrecision = 0.02
}
