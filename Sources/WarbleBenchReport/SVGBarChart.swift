import Foundation

/// A horizontal bar chart as plain SVG text: one bar per label, its length proportional to its
/// value, the value written at its end, a labelled value axis.
public struct SVGBarChart: Sendable {
    public var title: String
    /// The value axis's label ("x real time", "ms", "MiB").
    public var unit: String
    public var bars: [(label: String, value: Double)]

    public init(title: String, unit: String, bars: [(label: String, value: Double)]) {
        self.title = title
        self.unit = unit
        self.bars = bars
    }

    static let minimumLabelWidth = 160.0
    /// About the width of a character of the 13 px sans-serif labels.
    static let characterWidth = 7.4
    static let plotWidth = 420.0
    static let barHeight = 22.0
    static let gap = 8.0
    static let top = 40.0

    /// The length in pixels of a bar of `value` when the largest value is `largest`.
    public static func length(of value: Double, largest: Double) -> Double {
        largest > 0 && value.isFinite ? max(0, value) / largest * plotWidth : 0
    }

    /// Room on the left for the longest label, so that none runs off the picture.
    var labelWidth: Double {
        max(Self.minimumLabelWidth, Double(bars.map(\.label.count).max() ?? 0) * Self.characterWidth + 16)
    }

    public var svg: String {
        let largest = bars.map(\.value).filter(\.isFinite).max() ?? 0
        let plotHeight = Double(max(bars.count, 1)) * (Self.barHeight + Self.gap)
        let width = labelWidth + Self.plotWidth + 90
        let height = Self.top + plotHeight + 50
        let axisY = Self.top + plotHeight
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif" font-size="13">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(n(width / 2))" y="22" text-anchor="middle" font-size="15" font-weight="bold">\(Self.escape(title))</text>

            """
        for (index, bar) in bars.enumerated() {
            let y = Self.top + Double(index) * (Self.barHeight + Self.gap)
            let length = Self.length(of: bar.value, largest: largest)
            out += """
                <text x="\(n(labelWidth - 8))" y="\(n(y + Self.barHeight * 0.7))" text-anchor="end">\(Self.escape(bar.label))</text>
                <rect class="bar" x="\(n(labelWidth))" y="\(n(y))" width="\(n(length))" height="\(n(Self.barHeight))" fill="#4a7fb5"/>
                <text x="\(n(labelWidth + length + 6))" y="\(n(y + Self.barHeight * 0.7))">\(Self.escape(Self.value(bar.value)))</text>

                """
        }
        out += """
            <line x1="\(n(labelWidth))" y1="\(n(Self.top - 4))" x2="\(n(labelWidth))" y2="\(n(axisY))" stroke="black"/>
            <line x1="\(n(labelWidth))" y1="\(n(axisY))" x2="\(n(labelWidth + Self.plotWidth))" y2="\(n(axisY))" stroke="black"/>
            <text x="\(n(labelWidth))" y="\(n(axisY + 16))" text-anchor="middle">0</text>
            <text x="\(n(labelWidth + Self.plotWidth))" y="\(n(axisY + 16))" text-anchor="middle">\(Self.escape(Self.value(largest)))</text>
            <text x="\(n(labelWidth + Self.plotWidth / 2))" y="\(n(axisY + 36))" text-anchor="middle">\(Self.escape(unit))</text>
            <text x="\(n(labelWidth - 8))" y="\(n(axisY + 36))" text-anchor="end">model (engine)</text>
            </svg>

            """
        return out
    }

    private func n(_ value: Double) -> String { BenchReportTable.format(value, digits: 1) }

    static func value(_ value: Double) -> String { BenchReportTable.format(value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension BenchReport {
    /// The three charts of a report, by file name: real-time factor, time to first audio, peak memory.
    public var charts: [(file: String, chart: SVGBarChart)] {
        func bars(_ figure: (BenchReportRow) -> Double?) -> [(label: String, value: Double)] {
            rows.compactMap { row in figure(row).map { ("\(row.model) (\(row.engine))", $0) } }
        }
        return [
            ("rtf.svg", SVGBarChart(title: "Real-time factor (higher is faster)", unit: "x real time", bars: bars(\.realTimeFactor))),
            ("first-audio.svg", SVGBarChart(title: "Time to first audio, TTS (lower is better)", unit: "ms",
                                            bars: bars { $0.firstAudioSeconds.map { $0 * 1000 } })),
            ("memory.svg", SVGBarChart(title: "Peak memory growth (lower is better)", unit: "MiB", bars: bars(\.peakMemoryMiB))),
        ]
    }
}
