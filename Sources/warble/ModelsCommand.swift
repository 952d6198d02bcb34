import ArgumentParser
import Foundation
import WarbleEngine

/// `warble models`: the installed models with sizes and licences.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List installed models, their sizes and licences."
    )

    @Flag(help: "Print the manifests as JSON.")
    var json = false

    func run() throws {
        let store = ModelStore()
        let (models, problems) = store.scan()
        if json {
            print(try WarbleJSON.string(models.map(\.manifest), pretty: true))
        } else if models.isEmpty {
            print("No models installed in \(store.modelsDirectory.path). Run scripts/setup.sh to install the defaults.")
        } else {
            let rows = models.map { model -> [String] in
                let m = model.manifest
                return [m.id, m.family, formatBytes(m.totalBytes), m.licence, TextTable.list(m.languages),
                        "\(m.sampleRate) Hz"]
            }
            printTable(header: ["MODEL", "FAMILY", "SIZE", "LICENCE", "LANGUAGES", "RATE"], rows: rows)
        }
        for problem in problems {
            FileHandle.standardError.write(Data("warble: \(problem.message)\n".utf8))
        }
    }
}
