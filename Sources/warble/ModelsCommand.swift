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
                return [m.id, m.family, formatBytes(m.totalBytes), m.licence, m.languages.joined(separator: ","),
                        "\(m.sampleRate) Hz"]
            }
            printTable(header: ["MODEL", "FAMILY", "SIZE", "LICENCE", "LANGUAGES", "RATE"], rows: rows)
        }
        for problem in problems {
            FileHandle.standardError.write(Data("warble: \(problem.message)\n".utf8))
        }
    }
}

func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        print(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
    }
}
