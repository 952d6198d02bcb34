import ArgumentParser
import Foundation
import WarbleEngine
import WarbleServer

/// `warble voices`: every installed voice.
struct VoicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices",
        abstract: "List the installed voices (name, language, model, sample rate, gender)."
    )

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let engine = EngineFactory.make()
        let voices = await engine.voices
        let defaultID = await engine.defaultVoice?.id
        if json {
            print(try WarbleJSON.string(voices.map { VoiceListing($0, isDefault: $0.id == defaultID) }, pretty: true))
            return
        }
        guard !voices.isEmpty else {
            print("No voices installed. Install the default voice with: \(ModelDefaults.pullCommand(\.voice))")
            return
        }
        printTable(header: ["VOICE", "LANGUAGE", "MODEL", "RATE", "GENDER", "NAME"], rows: voices.map {
            [$0.id + ($0.id == defaultID ? " (default)" : ""), $0.language, $0.model, "\($0.sampleRate) Hz",
             $0.gender ?? "-", $0.displayName]
        })
    }
}
