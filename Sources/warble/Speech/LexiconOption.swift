import ArgumentParser
import Foundation
import WarbleText

/// `--lexicon FILE` of `say` and `serve`: a W3C pronunciation lexicon (PLS) read once, with a clear
/// error (and the line and column of a malformed entry) when it cannot be used.
enum LexiconOption {
    static let help = ArgumentHelp(
        "A pronunciation lexicon (W3C PLS, .pls): its <alias> entries replace words, its <phoneme> entries "
            + "(IPA) are spoken as written.",
        valueName: "file")

    static func load(_ path: String?) throws -> PronunciationLexicon? {
        guard let path else { return nil }
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("--lexicon \(path): no such file")
        }
        do {
            return try PronunciationLexicon(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--lexicon \(path) is not a usable pronunciation lexicon: \(error)")
        }
    }
}
