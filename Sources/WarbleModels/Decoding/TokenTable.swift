import Foundation
import WarbleSpeech

/// A `tokens.txt` as sherpa-onnx's exports write it: one `SYMBOL ID` a line (the id after the last space;
/// a line of only an id is the symbol " "). Symbols are SentencePiece pieces: a leading "▁" is a space.
public struct TokenTable: Sendable, Equatable {
    public let symbols: [String]

    public init(symbols: [String]) {
        self.symbols = symbols
    }

    public init(contentsOf url: URL) throws {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw ModelError(.badModel, "\(url.path) is missing or not UTF-8 text")
        }
        var byID: [Int: String] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            guard let space = trimmed.lastIndex(of: " "), let id = Int(trimmed[trimmed.index(after: space)...]), id >= 0 else {
                if let id = Int(trimmed), id >= 0 { byID[id] = " "; continue }
                throw ModelError(.badModel, "\(url.lastPathComponent) line \(number + 1) is not 'SYMBOL ID': \(trimmed.prefix(60))")
            }
            byID[id] = String(trimmed[..<space])
        }
        guard let last = byID.keys.max(), byID.count == last + 1 else {
            throw ModelError(.badModel, "\(url.lastPathComponent) does not number its tokens 0…N−1 (\(byID.count) lines)")
        }
        symbols = (0...last).map { byID[$0]! }
    }

    public var count: Int { symbols.count }

    public subscript(id: Int) -> String { symbols.indices.contains(id) ? symbols[id] : "" }

    /// A token's text as it joins the transcript: a leading "▁" becomes a space.
    public func piece(_ id: Int) -> String {
        let symbol = self[id]
        return symbol.hasPrefix("▁") ? " " + symbol.dropFirst() : symbol
    }

    /// The tokens' pieces joined, without leading spaces.
    public func text(_ ids: some Sequence<Int>) -> String {
        let joined = ids.map(piece).joined()
        return String(joined.drop { $0 == " " })
    }
}
