/// The one error type of the text layer (tokenizer files, SSML, lexicons, chunking, phonemizers).
///
/// The message says what was found and what is accepted; `line` and `column` (1-based) are set when the
/// error points into a document, such as malformed SSML or a PLS lexicon.
public struct TextError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A tokenizer file (tokenizer.json, vocab.json, merges.txt) could not be read or is not supported.
        case tokenizerFile
        /// An id or token not in the vocabulary.
        case unknownToken
        /// SSML that is not well-formed or uses something outside the supported subset.
        case ssml
        /// A pronunciation lexicon that could not be read.
        case lexicon
        /// A chunking limit that cannot be met (for example a zero limit).
        case chunking
        /// A phonemizer failed (unknown language, backend error).
        case phonemizer
    }

    public let kind: Kind
    public let message: String
    public let line: Int?
    public let column: Int?

    public init(_ kind: Kind, _ message: String, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        if let line, let column { return "\(message) (line \(line), column \(column))" }
        return message
    }
}
