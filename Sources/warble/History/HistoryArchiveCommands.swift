import ArgumentParser
import Foundation
import WarbleHistory
import WarbleSpeech

/// `warble history export`: sessions to a ZIP archive.
struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write sessions (texts, subtitles, audio) to a ZIP archive that `warble history import` reads back.",
        discussion: """
            With no ID and no --since, every session is exported. The archive holds manifest.json (format \
            warble-history, version 1: every field of each session, its texts, and each audio file's role, \
            format, SHA-256, size and place in the archive) and, per session, sessions/<id>-<kind>/ with \
            transcript.txt, translation.txt and source.txt (those it has), subtitles.srt (when it has \
            segments), session.json and its audio files (input.wav, output.wav, …).
            An existing FILE is not replaced unless --force is given. The archive is written beside FILE \
            under a temporary name and renamed at the end, so a failed export leaves no partial archive.
            """
    )

    @Argument(help: "The sessions' ids (see `warble history list`); none for every session.")
    var ids: [Int64] = []

    @Option(help: ArgumentHelp("Only sessions created on or after DATE: YYYY-MM-DD (local midnight) or ISO-8601 (2026-11-27T09:30:00Z).",
                               valueName: "DATE"))
    var since: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The archive to write (FILE.zip).", valueName: "FILE"))
    var output: String

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    func validate() throws {
        if let since, Self.date(since) == nil {
            throw ValidationError("--since \(since) is not a date: give YYYY-MM-DD or ISO-8601 such as 2026-11-27T09:30:00Z")
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: output)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue, force else {
                SpeechInput.note("error: \(output) exists\(isDirectory.boolValue ? " and is a folder" : " (add --force to replace it)")")
                throw ExitCode.failure
            }
        }
        let store = try HistoryCommand.open()
        do {
            let done = try store.export(ids: ids.isEmpty ? nil : ids, since: since.flatMap(Self.date), to: url)
            let count = done.ids.count
            print("Exported \(count) session\(count == 1 ? "" : "s") (\(done.audioFiles) audio file\(done.audioFiles == 1 ? "" : "s"), "
                  + String(format: "%.1f MB", Double(done.archiveBytes) / 1_000_000) + ") to \(output)")
        } catch let error as HistoryError { throw HistoryCommand.fail(error) }
    }

    /// YYYY-MM-DD as local midnight, or an ISO-8601 time (with or without fractional seconds).
    static func date(_ text: String) -> Date? {
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        day.timeZone = .current
        if text.count == 10, let date = day.date(from: text) { return date }
        let time = ISO8601DateFormatter()
        if let date = time.date(from: text) { return date }
        time.formatOptions.insert(.withFractionalSeconds)
        return time.date(from: text)
    }
}

/// `warble history import`: sessions from an archive written by `warble history export`.
struct HistoryImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the sessions of an archive written by `warble history export` (they get new ids).",
        discussion: """
            The whole archive is checked before anything is written: a ZIP with a manifest of a known version, \
            and every audio file present with the size and SHA-256 the manifest gives. Anything amiss refuses \
            the archive and leaves the history as it was. Audio already kept (an archive imported twice) is \
            reused, not stored again; the sessions themselves are added again on each import.
            """
    )

    @Argument(help: ArgumentHelp("The archive (FILE.zip).", valueName: "FILE"))
    var file: String

    func run() throws {
        let store = try HistoryCommand.open()
        do {
            let done = try store.importArchive(from: URL(fileURLWithPath: file))
            let count = done.ids.count
            print("Imported \(count) session\(count == 1 ? "" : "s"): ids \(done.ids.map(String.init).joined(separator: " "))")
        } catch let error as HistoryError { throw HistoryCommand.fail(error) }
    }
}
