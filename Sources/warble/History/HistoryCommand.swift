import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHistory
import WarbleSpeech
import WarbleText

/// `warble history`: the sessions kept in `$WARBLE_HOME/history` (list, show, search, delete, clear).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Sessions kept by transcribe and translate (and say --history): list, show, search, delete, clear, export, import.",
        discussion: """
            `warble transcribe` and `warble translate` keep each session (texts, timings, the audio heard and \
            spoken) unless given --no-history; `warble say` only with --history. Everything lives in \
            $WARBLE_HOME/history: history.sqlite and audio/ (each file named by the SHA-256 of its bytes).
            """,
        subcommands: [HistoryListCommand.self, HistoryShowCommand.self, HistorySearchCommand.self,
                      HistoryDeleteCommand.self, HistoryClearCommand.self, HistoryExportCommand.self, HistoryImportCommand.self],
        defaultSubcommand: HistoryListCommand.self
    )

    static func open() throws -> HistoryStore {
        do {
            return try HistoryStore(directory: HistoryStore.directory(home: ModelStore.defaultHome))
        } catch let error as HistoryError {
            throw fail(error)
        }
    }

    static func fail(_ error: HistoryError) -> ExitCode {
        SpeechInput.note("error: \(error.message)")
        return ExitCode.failure
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoded(value, pretty: true), as: UTF8.self)
    }

    /// Sessions as `--json` prints them and `GET /v1/history` serves them (times in ISO-8601).
    static func encoded(_ value: some Encodable, pretty: Bool) throws -> Data {
        let encoder = WarbleJSON.encoder(pretty: pretty)
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }

    static func printSummaries(_ sessions: [SessionSummary], json: Bool, empty: String) throws {
        if json { return print(try Self.json(sessions)) }
        if sessions.isEmpty { return print(empty) }
        let time = ISO8601DateFormatter()
        time.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        time.timeZone = .current
        let rows = sessions.map { s -> [String] in
            let languages = [s.sourceLanguage, s.targetLanguage].compactMap { $0 }.joined(separator: "→")
            return [String(s.id), s.kind.rawValue, time.string(from: s.createdAt), s.model ?? "-", languages.isEmpty ? "-" : languages,
                    s.duration.map { String(format: "%.1f s", $0) } ?? "-",
                    s.preview.replacingOccurrences(of: "\n", with: " ")]
        }
        printTable(header: ["ID", "KIND", "TIME", "MODEL", "LANGUAGES", "DURATION", "TEXT"], rows: rows)
    }
}

struct HistoryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The newest sessions first.")

    @Option(help: "At most this many sessions.")
    var limit = 50

    @Flag(help: "Print the sessions as JSON.")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let store = try HistoryCommand.open()
        do {
            try HistoryCommand.printSummaries(try store.list(limit: limit), json: json, empty: "No sessions in \(store.directory.path).")
        } catch let error as HistoryError { throw HistoryCommand.fail(error) }
    }
}

struct HistoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One session: its details, texts and audio files.")

    @Argument(help: "The session's id (see `warble history list`).")
    var id: Int64

    @Flag(help: "Print the session as JSON.")
    var json = false

    func run() throws {
        let store = try HistoryCommand.open()
        let found: StoredSession?
        do { found = try store.session(id: id) } catch let error as HistoryError { throw HistoryCommand.fail(error) }
        guard let session = found else {
            SpeechInput.note("error: no session \(id) in the history (see `warble history list`)")
            throw ExitCode.failure
        }
        if json { return print(try HistoryCommand.json(session)) }
        let s = session.summary
        var lines = ["session \(s.id): \(s.kind.rawValue), \(ISO8601DateFormatter().string(from: s.createdAt))"]
        if let model = s.model { lines.append("model: \(model)") }
        if let voice = s.voice { lines.append("voice: \(voice)") }
        if s.sourceLanguage != nil || s.targetLanguage != nil {
            lines.append("languages: \([s.sourceLanguage ?? "?", s.targetLanguage].compactMap { $0 }.joined(separator: " → "))")
        }
        if let duration = s.duration { lines.append(String(format: "duration: %.2f s", duration)) }
        if !session.timings.isEmpty {
            lines.append("timings: " + session.timings.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.2f", $0.value)) s" }
                .joined(separator: ", "))
        }
        for audio in session.audio { lines.append("\(audio.role.rawValue) audio: \(audio.path) (\(formatBytes(Int(audio.bytes))))") }
        for text in session.texts { lines.append("\n[\(text.role.rawValue)]\n\(text.text)") }
        // The details come from the history (an imported archive among them): shown with control characters escaped.
        print(lines.map { PrintableText.escaped($0, allowingLineBreaks: true) }.joined(separator: "\n"))
    }
}

struct HistorySearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Sessions whose texts hold every word given (word* matches a prefix).")

    @Argument(help: "The words to find.")
    var text: String

    @Option(help: "At most this many sessions.")
    var limit = 50

    @Flag(help: "Print the sessions as JSON.")
    var json = false

    func run() throws {
        let store = try HistoryCommand.open()
        do {
            try HistoryCommand.printSummaries(try store.search(text, limit: limit), json: json, empty: "No session holds \"\(text)\".")
        } catch let error as HistoryError { throw HistoryCommand.fail(error) }
    }
}

struct HistoryDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one session and the audio only it used.")

    @Argument(help: "The session's id (see `warble history list`).")
    var id: Int64

    func run() throws {
        let store = try HistoryCommand.open()
        let deleted: Bool
        do { deleted = try store.delete(id: id) } catch let error as HistoryError { throw HistoryCommand.fail(error) }
        guard deleted else {
            SpeechInput.note("error: no session \(id) in the history (see `warble history list`)")
            throw ExitCode.failure
        }
        print("deleted session \(id)")
    }
}

struct HistoryClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Delete every session and its audio (asks first on a terminal; --yes without one).")

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() throws {
        let store = try HistoryCommand.open()
        if !yes {
            guard isatty(STDIN_FILENO) != 0 else {
                SpeechInput.note("error: clearing the history needs confirmation: run it on a terminal, or add --yes")
                throw ExitCode.failure
            }
            let count = (try? store.list(limit: Int.max).count) ?? 0
            FileHandle.standardError.write(Data("Delete \(count == 1 ? "the 1 session and its" : "all \(count) sessions and their") audio in \(store.directory.path)? [y/N] ".utf8))
            guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
                print("nothing deleted")
                return
            }
        }
        do {
            let count = try store.clear()
            print("deleted \(count) session\(count == 1 ? "" : "s")")
        } catch let error as HistoryError { throw HistoryCommand.fail(error) }
    }
}
