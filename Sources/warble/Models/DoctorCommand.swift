import ArgumentParser
import Foundation
import WarbleEngine

/// `warble doctor`: what is installed, what works, and the command that fixes what does not.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the installation: ONNX Runtime, models and voices.",
        discussion: """
            Prints where ONNX Runtime was found, its version and API level, $WARBLE_HOME, the installed \
            models and voices, and for anything missing the command that fixes it. Exits with status 1 \
            when the engine cannot run.
            """
    )

    @Flag(help: "Also check the sha256 of every model file (slow for large models).")
    var checksums = false

    func run() throws {
        var report = DoctorReport()
        let home = ModelStore.defaultHome
        report.line("WARBLE_HOME", home.path)

        do {
            let check = try RuntimeDiagnostics.selfCheck()
            report.line("ONNX Runtime", "\(check.version) at \(check.path)")
            report.line("API level", "\(check.apiLevel) used, up to \(check.maxAPILevel) offered")
            report.line("providers", check.providers.joined(separator: ", "))
            report.line("self-check", String(format: "ok: model loaded in %.1f ms, ran in %.3f ms",
                                             check.loadSeconds * 1000, check.runSeconds * 1000))
        } catch {
            report.fail("ONNX Runtime", "\(error)")
        }

        let store = ModelStore(home: home)
        let (models, problems) = store.scan()
        if models.isEmpty {
            report.warn("models", "none installed in \(store.modelsDirectory.path)", fix: ModelDefaults.pullCommand(\.voice))
        }
        for model in models {
            let issues = model.verify(checksums: checksums)
            let summary = "\(model.manifest.family), \(formatBytes(model.manifest.totalBytes)), \(model.manifest.licence)"
            if issues.isEmpty {
                report.line("model \(model.manifest.id)", summary + (checksums ? ", checksums ok" : ""))
            } else {
                report.warn("model \(model.manifest.id)", issues.joined(separator: "; "), fix: FirstUse.installCommand(model.manifest.id))
            }
            for voice in model.manifest.voices {
                report.line("  voice", "\(voice.id) (\(voice.language))")
            }
        }
        for problem in problems {
            report.warn("model store", problem.message, fix: "pull the model again with warble models pull (warble models available lists them)")
        }

        print(report.text, terminator: "")
        if report.failed { throw ExitCode(1) }
    }
}

/// The doctor's aligned output and verdict.
struct DoctorReport {
    private(set) var text = ""
    private(set) var failed = false

    mutating func line(_ key: String, _ value: String) {
        text += key.padding(toLength: max(16, key.count + 1), withPad: " ", startingAt: 0) + value + "\n"
    }

    mutating func warn(_ key: String, _ value: String, fix: String) {
        line(key, "MISSING: \(value)\n" + String(repeating: " ", count: 16) + "fix: \(fix)")
    }

    mutating func fail(_ key: String, _ value: String) {
        failed = true
        line(key, "FAILED: " + value.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 16)))
    }
}

func formatBytes(_ bytes: Int) -> String {
    let mib = Double(bytes) / 1_048_576
    return mib >= 1 ? String(format: "%.1f MiB", mib) : String(format: "%.1f KiB", Double(bytes) / 1024)
}
