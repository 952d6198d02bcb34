import Foundation
import Testing
@testable import WarbleBenchReport

let machine = BenchMachine(cpu: "Test CPU", cores: 2, onnxRuntime: "1.22.0", date: "2026-11-27", build: "release")

@Test func tableHasOneRowPerModelAndTheColumnsOfItsKind() {
    let report = BenchReport(machine: machine, runs: 3, rows: [
        BenchReportRow(kind: .tts, model: "piper-en_US-joe-medium", engine: "warble", realTimeFactor: 31.25,
                       wordsPerSecond: 80, firstAudioSeconds: 0.0423, peakMemoryMiB: 61.4, referenceRatio: 1.5),
        BenchReportRow(kind: .tts, model: "piper-en_US-joe-medium", engine: "piper-tts", realTimeFactor: 20.8),
        BenchReportRow(kind: .asr, model: "whisper-tiny.en", engine: "warble", realTimeFactor: 12, wordsPerSecond: 30,
                       peakMemoryMiB: 150, wordErrorRate: 0.0312),
    ], skipped: ["kokoro-v1.0-int8: failed"])
    let text = BenchReportTable.markdown(report, charts: "docs/bench")
    #expect(text.contains("Test CPU, 2 cores, ONNX Runtime 1.22.0, release build, 2026-11-27"))
    #expect(text.contains("| Model | Engine | Real-time factor | Words/s | First audio | Peak memory | vs reference |"))
    #expect(text.contains("| piper-en_US-joe-medium | warble | 31.2x | 80.0 | 42 ms | 61 MiB | 1.50x |"))
    #expect(text.contains("| piper-en_US-joe-medium | piper-tts | 20.8x | – | – | – | – |"))
    // The ASR table has WER and no reference column (no row of it has a ratio).
    #expect(text.contains("| Model | Engine | Real-time factor | Words/s | Peak memory | WER |"))
    #expect(text.contains("| whisper-tiny.en | warble | 12.0x | 30.0 | 150 MiB | 3.1 % |"))
    #expect(!text.contains("Text translation"))
    #expect(text.contains("Not measured: kokoro-v1.0-int8: failed."))
    #expect(text.contains("![real-time factor](docs/bench/rtf.svg)") && text.contains("![peak memory](docs/bench/memory.svg)"))
}

@Test func cellsCannotBreakTheTable() {
    let row = BenchReportRow(kind: .translation, model: "a|b", engine: "warble", wordsPerSecond: 123.4)
    let text = BenchReportTable.markdown(BenchReport(machine: machine, runs: 1, rows: [row]))
    #expect(text.contains("| a\\|b | warble | 123 | – |"))
    #expect(text.contains("median of 1 run after"))
}
