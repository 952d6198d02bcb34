/// Something that translates text from one language to another (a Marian model: one pair each).
public protocol TextTranslator: Sendable {
    /// The language pairs it translates, as (source, target) language codes.
    var languagePairs: [LanguagePair] { get }
    /// `text` in `pair.target`. Cancelling the calling task stops it.
    func translate(_ text: String, pair: LanguagePair) async throws -> String
    /// Whether `translate(_:pair:beamSize:)` searches with the beam asked for.
    var searchesBeams: Bool { get }
    /// `text` in `pair.target`, by beam search of `beamSize` (nil: the model's default decoding).
    func translate(_ text: String, pair: LanguagePair, beamSize: Int?) async throws -> String
    /// The pieces a line is translated in, one after the other (its sentences), and what joins their
    /// translations; nil when the line is translated as one sequence. A caller may translate the pieces
    /// one by one and show each as it is done: the result is the same.
    func pieces(ofLine line: String) -> (pieces: [String], separator: String)?
}

extension TextTranslator {
    /// A translator with one way of decoding: no beams.
    public var searchesBeams: Bool { false }

    public func translate(_ text: String, pair: LanguagePair, beamSize: Int?) async throws -> String {
        try await translate(text, pair: pair)
    }

    public func pieces(ofLine line: String) -> (pieces: [String], separator: String)? { nil }
}

/// A translation direction: language codes ("en", "de").
public struct LanguagePair: Sendable, Hashable, Codable, CustomStringConvertible {
    public var source: String
    public var target: String

    public init(source: String, target: String) {
        self.source = source
        self.target = target
    }

    public var description: String { "\(source)→\(target)" }
}
