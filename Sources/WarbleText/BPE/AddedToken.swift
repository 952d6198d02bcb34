/// A token matched in the text before pre-tokenization (Hugging Face's `added_tokens`).
public struct AddedToken: Sendable, Hashable {
    public var id: Int
    public var content: String
    /// Special tokens are dropped by `decode(_:skipSpecialTokens: true)`.
    public var special: Bool
    public var singleWord: Bool
    public var leftStrip: Bool
    public var rightStrip: Bool
    /// Matched in the normalized text instead of the raw text.
    public var normalized: Bool

    public init(
        id: Int, content: String, special: Bool = true, singleWord: Bool = false, leftStrip: Bool = false,
        rightStrip: Bool = false, normalized: Bool = false
    ) {
        self.id = id
        self.content = content
        self.special = special
        self.singleWord = singleWord
        self.leftStrip = leftStrip
        self.rightStrip = rightStrip
        self.normalized = normalized
    }
}
