import ArgumentParser
import Foundation
import WarbleEngine

/// `warble models`: what is installed, what can be pulled, and pulling, checking and removing models.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Installed models; pull more from the Hugging Face Hub, verify or remove them.",
        discussion: """
            Models live in $WARBLE_HOME/models (default ~/.local/share/warble/models). `warble models` \
            alone lists them. Pulling follows the Hub's own settings: HF_ENDPOINT (a mirror), HF_TOKEN \
            (gated repositories), HF_HUB_OFFLINE=1 (no network).
            """,
        subcommands: [ModelsListCommand.self, ModelsAvailableCommand.self, ModelsPullCommand.self,
                      ModelsVerifyCommand.self, ModelsCheckCommand.self, ModelsRemoveCommand.self],
        defaultSubcommand: ModelsListCommand.self
    )
}

/// `warble models list`: the installed models with sizes and licences.
struct ModelsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List installed models, their sizes and licences.")

    @Flag(help: "Print the manifests as JSON.")
    var json = false

    func run() throws {
        let store = ModelStore()
        let (models, problems) = store.scan()
        if json {
            print(try WarbleJSON.string(models.map(\.manifest), pretty: true))
        } else if models.isEmpty {
            print("No models installed in \(store.modelsDirectory.path). Install the default voice with "
                + "`\(ModelDefaults.pullCommand(\.voice))`, others with `warble models pull ID` (`warble models available` lists them).")
        } else {
            let rows = models.map { model -> [String] in
                let m = model.manifest
                return [m.id, m.family, formatBytes(m.totalBytes), m.licence, TextTable.list(m.languages),
                        m.sampleRate > 0 ? "\(m.sampleRate) Hz" : "-"]  // text models (translation) have no rate
            }
            printTable(header: ["MODEL", "FAMILY", "SIZE", "LICENCE", "LANGUAGES", "RATE"], rows: rows)
        }
        for problem in problems {
            FileHandle.standardError.write(Data("warble: \(problem.message)\n".utf8))
        }
    }
}

/// `warble models verify [ID]`: every file re-hashed against its manifest.
struct ModelsVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Re-hash every file of the installed models (or of ID) against its manifest.")

    @Argument(help: "A model id (see `warble models`); all models when left out.")
    var id: String?

    func run() throws {
        let store = ModelStore()
        let models = try id.map { [try store.model($0)] } ?? store.scan().models
        var bad = 0
        for model in models {
            let problems = model.verify(checksums: true)
            if problems.isEmpty {
                print("ok      \(model.manifest.id) (\(model.manifest.files.count) file\(model.manifest.files.count == 1 ? "" : "s"), \(formatBytes(model.manifest.totalBytes)))")
            } else {
                bad += 1
                print("FAILED  \(model.manifest.id)")
                for problem in problems { print("        \(problem)") }
            }
        }
        if bad > 0 {
            SpeechInput.note("\(bad) model\(bad == 1 ? " is" : "s are") damaged: pull \(bad == 1 ? "it" : "them") again with warble models pull")
            throw ExitCode.failure
        }
    }
}

/// `warble models remove ID`.
struct ModelsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete an installed model.")

    @Argument(help: "Model ids (see `warble models`).")
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name the model(s) to remove") }
    }

    func run() async throws {
        let installer = ModelInstaller()
        for id in ids {
            do {
                try await installer.remove(id)
                print("removed \(id)")
            } catch let error as ModelStoreError {
                SpeechInput.note("error: \(error.message)")
                throw ExitCode.failure
            }
        }
    }
}
