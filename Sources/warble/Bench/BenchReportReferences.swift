import Foundation
import WarbleBenchReport
import WarbleSpeech

/// The Python reference engines (tools/bench/report_reference.py, run with the repository's
/// .venv), each run in a process of its own on the same input as Warble.
struct BenchReportReferences {
    var python: String
    var script: String
    var runs: Int
    var threads: Int

    /// The repository's Python env and script, found from the working directory; nil with the reason when absent.
    static func find(runs: Int, threads: Int) -> Result<BenchReportReferences, BenchTTSError> {
        let python = ".venv/bin/python", script = "tools/bench/report_reference.py"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return .failure(BenchTTSError("no .venv/bin/python here (run from the repository after scripts/python-env.sh)"))
        }
        guard FileManager.default.fileExists(atPath: script) else {
            return .failure(BenchTTSError("no \(script) here (run from the repository)"))
        }
        return .success(BenchReportReferences(python: python, script: script, runs: runs, threads: threads))
    }

    /// What the reference printed (medians), or the reason it did not run.
    struct Measurement: Decodable {
        var engine: String
        var wall_s: Double
        var audio_s: Double?
        var first_audio_s: Double?
        var text: String?
        var peak_mib: Double?
    }

    /// The reference's row for `row` (same kind and input), with `row` given its ratio.
    func measure(_ row: inout BenchReportRow, model: String, input: String, extra: [String]) -> Result<BenchReportRow, BenchTTSError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, row.kind.rawValue, model, "--input", input, "--runs", "\(runs)", "--threads", "\(threads)"] + extra
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return .failure(BenchTTSError("could not start \(python): \(error)")) }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = errors.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            return .failure(BenchTTSError(reason))
        }
        guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last,
              let m = try? JSONDecoder().decode(Measurement.self, from: Data(line.utf8)) else {
            return .failure(BenchTTSError("\(script) printed no JSON"))
        }
        var reference = BenchReportRow(kind: row.kind, model: row.model, engine: m.engine, peakMemoryMiB: m.peak_mib)
        switch row.kind {
        case .tts:
            reference.realTimeFactor = (m.audio_s ?? 0) / m.wall_s
            reference.wordsPerSecond = Double(BenchReportInputs.words(BenchReportInputs.paragraph)) / m.wall_s
            reference.firstAudioSeconds = m.first_audio_s
        case .asr:
            reference.realTimeFactor = (m.audio_s ?? 0) / m.wall_s
            reference.wordsPerSecond = Double(BenchReportInputs.words(m.text ?? "")) / m.wall_s
            reference.wordErrorRate = WordErrorRate.between(reference: BenchReportInputs.speechClipText, hypothesis: m.text ?? "")
        case .translation:
            reference.wordsPerSecond = Double(BenchReportInputs.sentences.map(BenchReportInputs.words).reduce(0, +)) / m.wall_s
        }
        if let mine = row.speed, let theirs = reference.speed, theirs > 0 { row.referenceRatio = mine / theirs }
        return .success(reference)
    }
}
