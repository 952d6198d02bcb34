import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import WarbleBenchReport

/// Collects the bars (class="bar" rects) and texts of an SVG while parsing it.
final class SVGReader: NSObject, XMLParserDelegate {
    var barWidths: [Double] = []
    var texts: [String] = []
    private var inText = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "rect", attributes["class"] == "bar", let width = attributes["width"].flatMap(Double.init) { barWidths.append(width) }
        if name == "text" { inText = true; texts.append("") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { inText = false }
    }

    static func read(_ svg: String) -> SVGReader? {
        let reader = SVGReader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        return parser.parse() ? reader : nil
    }
}

@Test func chartIsWellFormedWithBarsProportionalToTheValues() throws {
    let chart = SVGBarChart(title: "Real-time factor <higher & better>", unit: "x real time",
                            bars: [("piper (warble)", 30), ("piper (piper-tts)", 15), ("kokoro \"q\" (warble)", 7.5)])
    let reader = try #require(SVGReader.read(chart.svg))
    #expect(reader.barWidths.count == 3)
    #expect(abs(reader.barWidths[0] - SVGBarChart.plotWidth) < 0.1)
    #expect(abs(reader.barWidths[1] / reader.barWidths[0] - 0.5) < 0.01)
    #expect(abs(reader.barWidths[2] / reader.barWidths[0] - 0.25) < 0.01)
    #expect(reader.texts.contains("Real-time factor <higher & better>"))
    #expect(reader.texts.contains("x real time"))
    #expect(reader.texts.contains("kokoro \"q\" (warble)"))
    #expect(reader.texts.contains("15.0"))
}

@Test func emptyChartIsStillWellFormed() throws {
    let reader = try #require(SVGReader.read(SVGBarChart(title: "Memory", unit: "MiB", bars: []).svg))
    #expect(reader.barWidths.isEmpty)
    #expect(SVGBarChart.length(of: 5, largest: 0) == 0)
}

@Test func reportHasThreeChartsOfTheRowsThatHaveTheFigure() throws {
    let report = BenchReport(machine: machine, runs: 1, rows: [
        BenchReportRow(kind: .tts, model: "m", engine: "warble", realTimeFactor: 10, firstAudioSeconds: 0.05, peakMemoryMiB: 60),
        BenchReportRow(kind: .translation, model: "t", engine: "warble", wordsPerSecond: 50, peakMemoryMiB: 90),
    ])
    let charts = report.charts
    #expect(charts.map(\.file) == ["rtf.svg", "first-audio.svg", "memory.svg"])
    #expect(charts[0].chart.bars.count == 1)
    #expect(charts[1].chart.bars.map(\.value) == [50])
    #expect(charts[2].chart.bars.map(\.label) == ["m (warble)", "t (warble)"])
}
