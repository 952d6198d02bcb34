import WarbleText

/// The special tokens CosyVoice 3's own tokenizer adds at run time (`CosyVoice3Tokenizer` in the authors'
/// `cosyvoice/tokenizer/tokenizer.py`), in their order. The Qwen2 files copied beside the ONNX graphs list
/// only Qwen2's own three; Hugging Face's `add_special_tokens` keeps a token already known and gives each
/// new one the next id, so `<|endofprompt|>` lands on 151646 and the rest follow.
enum CosyVoice3SpecialTokens {
    /// The end-of-text and padding token the authors name first (Qwen2's own, so already known).
    static let endOfText = "<|endoftext|>"

    static let additional: [String] = [
        "<|im_start|>", "<|im_end|>", "<|endofprompt|>",
        "[breath]", "<strong>", "</strong>", "[noise]", "[laughter]", "[cough]", "[clucking]", "[accent]", "[quick_breath]",
        "<laughter>", "</laughter>", "[hissing]", "[sigh]", "[vocalized-noise]", "[lipsmack]", "[mn]", "<|endofsystem|>",
    ] + arpabet + pinyin

    /// English phones (ARPAbet, with stress digits where the authors list them).
    static let arpabet: [String] = [
        "AA", "AA0", "AA1", "AA2", "AE", "AE0", "AE1", "AE2", "AH", "AH0", "AH1", "AH2", "AO", "AO0", "AO1", "AO2",
        "AW", "AW0", "AW1", "AW2", "AY", "AY0", "AY1", "AY2", "B", "CH", "D", "DH", "EH", "EH0", "EH1", "EH2",
        "ER", "ER0", "ER1", "ER2", "EY", "EY0", "EY1", "EY2", "F", "G", "HH", "IH", "IH0", "IH1", "IH2", "IY",
        "IY0", "IY1", "IY2", "JH", "K", "L", "M", "N", "NG", "OW", "OW0", "OW1", "OW2", "OY", "OY0", "OY1", "OY2",
        "P", "R", "S", "SH", "T", "TH", "UH", "UH0", "UH1", "UH2", "UW", "UW0", "UW1", "UW2", "V", "W", "Y", "Z", "ZH",
    ].map { "[\($0)]" }

    /// Mandarin initials and finals (pinyin, with tone marks), in the authors' order.
    static let pinyin: [String] = [
        "a", "ai", "an", "ang", "ao", "b", "c", "ch", "d", "e", "ei", "en", "eng", "f", "g", "h", "i", "ian", "in",
        "ing", "iu", "ià", "iàn", "iàng", "iào", "iá", "ián", "iáng", "iáo", "iè", "ié", "iòng", "ióng", "iù", "iú",
        "iā", "iān", "iāng", "iāo", "iē", "iě", "iōng", "iū", "iǎ", "iǎn", "iǎng", "iǎo", "iǒng", "iǔ", "j", "k", "l",
        "m", "n", "o", "ong", "ou", "p", "q", "r", "s", "sh", "t", "u", "uang", "ue", "un", "uo", "uà", "uài", "uàn",
        "uàng", "uá", "uái", "uán", "uáng", "uè", "ué", "uì", "uí", "uò", "uó", "uā", "uāi", "uān", "uāng", "uē", "uě",
        "uī", "uō", "uǎ", "uǎi", "uǎn", "uǎng", "uǐ", "uǒ", "vè", "w", "x", "y", "z", "zh", "à", "ài", "àn", "àng",
        "ào", "á", "ái", "án", "áng", "áo", "è", "èi", "èn", "èng", "èr", "é", "éi", "én", "éng", "ér", "ì", "ìn",
        "ìng", "í", "ín", "íng", "ò", "òng", "òu", "ó", "óng", "óu", "ù", "ùn", "ú", "ún", "ā", "āi", "ān", "āng",
        "āo", "ē", "ēi", "ēn", "ēng", "ě", "ěi", "ěn", "ěng", "ěr", "ī", "īn", "īng", "ō", "ōng", "ōu", "ū", "ūn",
        "ǎ", "ǎi", "ǎn", "ǎng", "ǎo", "ǐ", "ǐn", "ǐng", "ǒ", "ǒng", "ǒu", "ǔ", "ǔn", "ǘ", "ǚ", "ǜ",
    ].map { "[\($0)]" }

    /// The authors' tokens that `tokenizer` does not know (neither added nor in its vocabulary), each with the
    /// next free id, in their order: what their `add_special_tokens` call adds to the copied files.
    static func missing(from tokenizer: BPETokenizer) -> [AddedToken] {
        var next = tokenizer.vocabularySize
        var seen = Set<String>()
        var tokens: [AddedToken] = []
        for content in [endOfText] + additional where tokenizer.id(for: content) == nil && seen.insert(content).inserted {
            tokens.append(AddedToken(id: next, content: content))
            next += 1
        }
        return tokens
    }
}
