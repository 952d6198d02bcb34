import ArgumentParser

@main
struct Warble: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warble",
        abstract: "On-device speech: text to speech, speech recognition and translation, all local.",
        discussion: """
            Models and the ONNX Runtime library live in $WARBLE_HOME (default ~/.local/share/warble); \
            scripts/setup.sh installs them. Start with `warble doctor` to see what is ready.
            """,
        version: WarbleVersion.description,
        subcommands: [SayCommand.self, VoicesCommand.self, TranscribeCommand.self, TranslateCommand.self, TranslateTextCommand.self, DoctorCommand.self, ModelsCommand.self, InspectCommand.self, BenchCommand.self, ServeCommand.self, SpeechdCommand.self, VoiceCommand.self, HistoryCommand.self]
    )
}

extension Warble {
    /// ArgumentParser's `main()`, except that a `ValidationError` thrown by a command's `run()` is a failure
    /// of the work, not of the command line: it prints `Error: message` without the usage text and exits 1.
    /// Mistakes found while parsing (including each command's `validate()`) stay usage errors (exit 64).
    static func main() async {
        let parsed: any ParsableCommand
        do {
            parsed = try await asyncParseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            var command = parsed
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            exit(withError: ValidationErrorMessage(error.message))
        } catch {
            exit(withError: error)
        }
    }
}
