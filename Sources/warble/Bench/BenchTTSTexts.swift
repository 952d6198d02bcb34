import Foundation

/// The fixed texts of the speech benchmark (tools/ttsbench/texts.json), shared with the Python
/// references so that both sides speak exactly the same words.
struct BenchTTSTexts: Decodable {
    /// Sentences synthesised one request each; their total time is the synthesis time.
    var sentences: [String]
    /// A five-sentence paragraph: time to first audio is measured on it.
    var paragraph: [String]

    static func load(_ path: String) throws -> BenchTTSTexts {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchTTSError("text set \(path) not found (tools/ttsbench/texts.json is the fixed one)")
        }
        do {
            let texts = try JSONDecoder().decode(BenchTTSTexts.self, from: data)
            guard !texts.sentences.isEmpty, !texts.paragraph.isEmpty else {
                throw BenchTTSError("text set \(path) has no sentences or no paragraph")
            }
            return texts
        } catch let error as BenchTTSError {
            throw error
        } catch {
            throw BenchTTSError("text set \(path) is not {\"sentences\": [..], \"paragraph\": [..]}: \(error)")
        }
    }
}

/// A benchmark that cannot run: what was found and what is needed.
struct BenchTTSError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
