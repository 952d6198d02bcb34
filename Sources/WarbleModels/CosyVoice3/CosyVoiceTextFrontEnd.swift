import Foundation
import WarbleText

/// CosyVoice 3's text front end: normalises the text the way the model authors' front end does
/// without its optional packages, and splits it into the pieces the model speaks one at a time.
///
/// - Text holding both `<|` and `|>` (special tokens, `<|endofprompt|>` prompts) is left as it is,
///   one piece.
/// - Chinese (any CJK ideograph): newlines removed, spaces kept only between ASCII characters,
///   ² → 平方, ³ → 立方, `.` → `。`, ` - ` → `，`, full-width brackets, 【】 and backticks dropped, a
///   trailing `，,、` run → `。`; pieces counted in characters.
/// - Other text: numbers spelled out (by `englishNormalizer`); pieces counted in the model's tokens.
/// - Pieces of 60–80 (a last one under 20 joins the one before); punctuation-only pieces dropped.
public struct CosyVoiceTextFrontEnd: Sendable {
    let splitter: CosyVoiceParagraphSplitter
    let englishNormalizer: any TextNormalizing
    let chineseNormalizer: (any TextNormalizing)?

    /// - Parameters:
    ///   - tokenCount: the number of the model's tokens in a text (its BPE tokenizer's `encode`).
    ///   - englishNormalizer: reads numbers (and other written forms) in text that is not Chinese.
    ///   - chineseNormalizer: run first on Chinese text, as the authors' front end runs a Chinese
    ///     text normaliser when one is installed; nil (the authors' fallback) keeps digits as they are.
    public init(
        tokenCount: @escaping @Sendable (String) -> Int, englishNormalizer: any TextNormalizing = EnglishNormalizer(),
        chineseNormalizer: (any TextNormalizing)? = nil
    ) {
        splitter = CosyVoiceParagraphSplitter(tokenCount: tokenCount)
        self.englishNormalizer = englishNormalizer
        self.chineseNormalizer = chineseNormalizer
    }

    /// A front end counting English pieces in `tokenizer`'s tokens (CosyVoice 3's Qwen2 tokenizer).
    public init(
        tokenizer: BPETokenizer, englishNormalizer: any TextNormalizing = EnglishNormalizer(),
        chineseNormalizer: (any TextNormalizing)? = nil
    ) {
        self.init(
            tokenCount: { tokenizer.encode($0).count }, englishNormalizer: englishNormalizer,
            chineseNormalizer: chineseNormalizer)
    }

    /// Whether the text skips normalisation (it holds both `<|` and `|>`).
    public static func isTagged(_ text: String) -> Bool { CosyVoiceTextRules.isTagged(text) }

    /// The text normalised but not split (how the authors treat a prompt's transcript). Tagged and
    /// empty text come back unchanged.
    public func normalize(_ text: String) -> String {
        if text.isEmpty || Self.isTagged(text) { return text }
        return normalized(CosyVoiceTextRules.strip(text)).text
    }

    /// The pieces to speak, in order. Tagged text is one piece, unchanged.
    /// - Throws: `TextError` (`.chunking`) when the text is empty, only spaces, or only punctuation.
    public func pieces(_ text: String) throws -> [String] {
        if Self.isTagged(text) { return [text] }
        let stripped = CosyVoiceTextRules.strip(text)
        guard !stripped.isEmpty else {
            throw TextError(.chunking, "the text is \(text.isEmpty ? "empty" : "only spaces"): CosyVoice has nothing to say")
        }
        let (normalized, chinese) = normalized(stripped)
        let pieces = normalized.isEmpty ? [] : splitter.split(normalized, chinese: chinese)
        let spoken = pieces.filter { !CosyVoiceTextRules.isOnlyPunctuation($0) }
        guard !spoken.isEmpty else {
            throw TextError(.chunking, "the text \"\(stripped.prefix(80))\" is only punctuation and symbols: CosyVoice has nothing to say")
        }
        return spoken
    }

    /// Normalises stripped text; also says whether it was read as Chinese.
    func normalized(_ text: String) -> (text: String, chinese: Bool) {
        guard CosyVoiceTextRules.containsChinese(text) else {
            return (englishNormalizer.normalize(text), false)
        }
        var text = chineseNormalizer?.normalize(text) ?? text
        text = CosyVoiceTextRules.replace(text, "\n", with: "")
        text = CosyVoiceTextRules.replaceBlank(text)
        text = CosyVoiceTextRules.replaceCornerMarks(text)
        text = CosyVoiceTextRules.replace(CosyVoiceTextRules.replace(text, ".", with: "。"), " - ", with: "，")
        text = CosyVoiceTextRules.removeBrackets(text)
        return (CosyVoiceTextRules.endWithFullStop(text), true)
    }
}
