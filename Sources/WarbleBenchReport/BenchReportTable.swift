import Foundation

/// The Markdown of a report: one table per kind measured, the machine line, what was skipped.
public enum BenchReportTable {
    /// The tables (what the README embeds), and the charts as images when `charts` is given (a folder,
    /// relative to the Markdown file).
    public static func markdown(_ report: BenchReport, charts: String? = nil) -> String {
        var out = "Measured on \(report.machine.line); median of \(report.runs) run\(report.runs == 1 ? "" : "s") after a warm-up.\n"
        for kind in BenchKind.allCases {
            let rows = report.rows.filter { $0.kind == kind }
            guard !rows.isEmpty else { continue }
            out += "\n" + table(kind, rows: rows)
        }
        if !report.skipped.isEmpty {
            out += "\nNot measured: " + report.skipped.joined(separator: "; ") + ".\n"
        }
        out += "\nReal-time factor: seconds of audio per wall-clock second (higher is faster). Peak memory: growth of the "
            + "process's peak resident set during the model's load and runs. vs reference: Warble's speed over the "
            + "reference engine's on the same input (>1: Warble faster).\n"
        if let charts {
            let folder = charts.isEmpty || charts.hasSuffix("/") ? charts : charts + "/"
            out += "\n![real-time factor](\(folder)rtf.svg)\n\n![time to first audio](\(folder)first-audio.svg)\n\n"
                + "![peak memory](\(folder)memory.svg)\n"
        }
        return out
    }

    /// The whole report.md.
    public static func document(_ report: BenchReport) -> String {
        "# Warble benchmark report\n\n" + markdown(report, charts: "")
    }

    static func table(_ kind: BenchKind, rows: [BenchReportRow]) -> String {
        let withRatio = rows.contains { $0.referenceRatio != nil }
        var columns: [(String, (BenchReportRow) -> String)] = [("Model", \.model), ("Engine", \.engine)]
        if kind != .translation { columns.append(("Real-time factor", { format($0.realTimeFactor, suffix: "x") })) }
        columns.append(("Words/s", { format($0.wordsPerSecond) }))
        if kind == .tts { columns.append(("First audio", { format($0.firstAudioSeconds.map { $0 * 1000 }, digits: 0, suffix: " ms") })) }
        columns.append(("Peak memory", { format($0.peakMemoryMiB, digits: 0, suffix: " MiB") }))
        if kind == .asr { columns.append(("WER", { format($0.wordErrorRate.map { $0 * 100 }, digits: 1, suffix: " %") })) }
        if withRatio { columns.append(("vs reference", { format($0.referenceRatio, digits: 2, suffix: "x") })) }
        var out = "#### \(kind.title)\n\n"
        out += "| " + columns.map(\.0).joined(separator: " | ") + " |\n"
        out += "|" + columns.enumerated().map { $0.offset < 2 ? "---|" : "---:|" }.joined() + "\n"
        for row in rows {
            out += "| " + columns.map { escape($0.1(row)) }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    /// A figure with `digits` decimals (fewer for large values), or "–" when it does not apply.
    static func format(_ value: Double?, digits: Int? = nil, suffix: String = "") -> String {
        guard let value, value.isFinite else { return "–" }
        let places = digits ?? (abs(value) >= 100 ? 0 : abs(value) >= 10 ? 1 : 2)
        return String(format: "%.\(places)f", value) + suffix
    }

    static func escape(_ cell: String) -> String {
        cell.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
