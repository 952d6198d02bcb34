import Foundation

/// What a benchmark row measures: speech synthesis, speech recognition or text translation.
public enum BenchKind: String, Codable, Sendable, CaseIterable {
    case tts, asr, translation

    public var title: String {
        switch self {
        case .tts: "Speech synthesis (TTS)"
        case .asr: "Speech recognition (ASR)"
        case .translation: "Text translation"
        }
    }
}

/// One model's medians on the fixed inputs (nil where a figure does not apply).
public struct BenchReportRow: Codable, Sendable, Equatable {
    public var kind: BenchKind
    public var model: String
    /// "warble", or the reference engine's name ("piper-tts", "faster-whisper", …).
    public var engine: String
    /// Seconds of audio per wall-clock second ("x real time"): made (TTS) or transcribed (ASR).
    public var realTimeFactor: Double?
    /// Words per wall-clock second: spoken (TTS), transcribed (ASR), translated source words.
    public var wordsPerSecond: Double?
    /// Seconds from the request to the first audio of the paragraph (TTS, streamed).
    public var firstAudioSeconds: Double?
    /// Peak resident memory growth during the model's load and runs, MiB.
    public var peakMemoryMiB: Double?
    /// Word error rate against the clip's text (ASR).
    public var wordErrorRate: Double?
    /// This row's speed over its reference engine's (RTF, or words/s for translation); >1: Warble faster.
    public var referenceRatio: Double?

    public init(kind: BenchKind, model: String, engine: String, realTimeFactor: Double? = nil, wordsPerSecond: Double? = nil,
                firstAudioSeconds: Double? = nil, peakMemoryMiB: Double? = nil, wordErrorRate: Double? = nil,
                referenceRatio: Double? = nil) {
        self.kind = kind
        self.model = model
        self.engine = engine
        self.realTimeFactor = realTimeFactor
        self.wordsPerSecond = wordsPerSecond
        self.firstAudioSeconds = firstAudioSeconds
        self.peakMemoryMiB = peakMemoryMiB
        self.wordErrorRate = wordErrorRate
        self.referenceRatio = referenceRatio
    }

    /// The speed figure compared with a reference: RTF, or words/s where there is no audio.
    public var speed: Double? { realTimeFactor ?? wordsPerSecond }
}

/// The machine a report was measured on.
public struct BenchMachine: Codable, Sendable, Equatable {
    public var cpu: String
    public var cores: Int
    public var onnxRuntime: String
    /// ISO 8601 day of the run.
    public var date: String
    public var build: String

    public init(cpu: String, cores: Int, onnxRuntime: String, date: String, build: String) {
        self.cpu = cpu
        self.cores = cores
        self.onnxRuntime = onnxRuntime
        self.date = date
        self.build = build
    }

    public var line: String {
        "\(cpu), \(cores) cores, ONNX Runtime \(onnxRuntime), \(build) build, \(date)"
    }
}

/// A whole report: the machine, the rows, and every model or reference that was not measured and why.
public struct BenchReport: Codable, Sendable, Equatable {
    public var machine: BenchMachine
    public var runs: Int
    public var rows: [BenchReportRow]
    public var skipped: [String]

    public init(machine: BenchMachine, runs: Int, rows: [BenchReportRow] = [], skipped: [String] = []) {
        self.machine = machine
        self.runs = runs
        self.rows = rows
        self.skipped = skipped
    }
}
