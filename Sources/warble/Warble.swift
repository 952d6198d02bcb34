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
