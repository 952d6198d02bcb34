import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleSpeech

/// One transcription request: faster-whisper's `generate_segments` over 16 kHz mono samples.
struct WhisperTranscription {
    let model: WhisperModel
    let options: TranscriptionOptions
    /// Stops the transcription between steps; `runOptions` (tied to it by the recognizer) stop a run under way.
    var cancel = CancellationToken()
    var runOptions: RunOptions?

    static let maxInitialTimestamp = 1.0
    static let promptResetOnTemperature = 0.5
    static let bestOf = 5
    static let framesPerSecond = 100
    static let inputStride = 2

    /// The language to use: the given one (checked) or, for multilingual models, the detected one.
    func language(features: FeatureMatrix) throws -> String {
        let c = model.configuration
        if let code = options.language?.lowercased(), code != "auto" {
            if c.multilingual {
                guard c.languageCodes.contains(code) else {
                    throw ModelError(.unknownVoice, "unknown language code '\(code)': \(model.id) knows "
                        + c.languageCodes.joined(separator: ", "))
                }
                return code
            }
            guard code == "en" else {
                throw ModelError(.unknownVoice, "\(model.id) is English-only and cannot take language '\(code)'; "
                    + "use a multilingual model such as whisper-base (--model whisper-base)")
            }
            return code
        }
        return c.multilingual ? try model.detectLanguage(features: features, options: runOptions).language : "en"
    }

    func run(samples: [Float], yield: (TranscriptSegment) -> Void) throws {
        let c = model.configuration
        if options.task == .translate, !c.multilingual {
            throw ModelError(.unknownVoice, "\(model.id) is English-only and cannot translate; use whisper-base")
        }
        let features = WhisperLogMel(melCount: c.melCount)(samples)
        let language = try language(features: features)
        try cancel.check()
        let tokens = model.tokens
        let timestampBegin = c.specialTokens.timestampBegin
        let contentFrames = features.rows - 1
        var seek = 0
        var allTokens: [Int] = []
        var promptResetSince = 0
        if let initial = options.initialPrompt, !initial.trimmingCharacters(in: .whitespaces).isEmpty {
            allTokens = model.encode(" " + initial.trimmingCharacters(in: .whitespaces))
        }
        var windowIndex: UInt64 = 0
        var wordTimes = WhisperWordTimestamps()
        if options.wordTimestamps { try model.requireWordAlignment() }
        while seek < contentFrames {
            try cancel.check()
            let timeOffset = Double(seek) / Double(Self.framesPerSecond)
            let segmentSize = min(c.frames, contentFrames - seek)
            let segmentDuration = Double(segmentSize) / Double(Self.framesPerSecond)
            if Self.isSilent(samples, frames: seek..<(seek + segmentSize)) {
                // Digital silence: Whisper tends to hallucinate a word here (faster-whisper gives " You").
                seek += segmentSize
                continue
            }
            let encoding = try model.encode(window: model.window(of: features, start: seek, count: segmentSize), options: runOptions)
            let previous = Array(allTokens[promptResetSince...])
            let prompt = tokens.prompt(previous: previous, language: language, task: options.task,
                                       timestamps: options.timestamps)
            let decoded = try decodeWithFallback(encoding: encoding, prompt: prompt, seed: windowIndex)
            windowIndex += 1
            let result = decoded.result
            if let threshold = options.noSpeechThreshold, result.noSpeechProbability > threshold {
                let confident = options.logProbabilityThreshold.map { result.averageLogProbability > $0 } ?? false
                if !confident {
                    seek += segmentSize
                    continue
                }
            }
            let previousSeek = seek
            var (pieces, nextSeek) = split(result.tokens, timeOffset: timeOffset, segmentSize: segmentSize,
                                           segmentDuration: segmentDuration, seek: seek, timestampBegin: timestampBegin)
            seek = nextSeek
            if options.wordTimestamps {
                try cancel.check()
                let eot = c.specialTokens.eot
                let text = pieces.flatMap { $0.tokens.filter { $0 < eot } }
                let alignment = try model.align(encoding: encoding,
                                                startSequence: tokens.startSequence(language: language, task: options.task),
                                                text: text, frames: segmentSize, options: runOptions)
                let timings = WhisperWordTimestamps.timings(text: text, alignment: alignment,
                                                            words: model.words(of: text + [eot], language: language))
                wordTimes.add(to: &pieces, timings: timings, timeOffset: timeOffset, endOfText: eot)
                // faster-whisper goes on from the last word's end unless the window ended on one timestamp.
                if !Self.endsOnSingleTimestamp(result.tokens, timestampBegin: timestampBegin),
                   let lastWordEnd = WhisperWordTimestamps.end(of: pieces), lastWordEnd > timeOffset {
                    seek = Int((lastWordEnd * Double(Self.framesPerSecond)).rounded(.toNearestOrEven))
                }
                if let end = WhisperWordTimestamps.end(of: pieces) { wordTimes.lastSpeechTimestamp = end }
            }
            for piece in pieces {
                let text = model.text(of: piece.tokens)
                if piece.start == piece.end || text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { continue }
                allTokens += piece.tokens
                yield(TranscriptSegment(
                    start: piece.start, end: piece.end, text: text, tokens: piece.tokens, language: language,
                    averageLogProbability: result.averageLogProbability, compressionRatio: decoded.compressionRatio,
                    noSpeechProbability: result.noSpeechProbability, temperature: decoded.temperature,
                    words: piece.words))
            }
            if !options.conditionOnPreviousText || decoded.temperature > Self.promptResetOnTemperature {
                promptResetSince = allTokens.count
            }
            if seek <= previousSeek { seek = previousSeek + segmentSize }
        }
    }

    /// Peak below −80 dBFS over the window's samples: nothing to recognise.
    static let silencePeak: Float = 1e-4

    static func isSilent(_ samples: [Float], frames: Range<Int>) -> Bool {
        let hop = WhisperLogMel.hopLength
        let range = (frames.lowerBound * hop)..<min(samples.count, frames.upperBound * hop)
        guard !range.isEmpty else { return true }
        for i in range where abs(samples[i]) >= silencePeak { return false }
        return true
    }

    struct Decoded {
        var result: WhisperSearch.Result
        var temperature: Double
        var compressionRatio: Double
    }

    /// faster-whisper's `generate_with_fallback`.
    func decodeWithFallback(encoding: WhisperEncoding, prompt: [Int], seed: UInt64) throws -> Decoded {
        var all: [Decoded] = []
        var belowCompressionThreshold: [Decoded] = []
        let temperatures = options.temperatures.isEmpty ? [0] : options.temperatures
        for temperature in temperatures {
            var search = WhisperSearch()
            search.cancel = cancel
            search.runOptions = runOptions
            search.beamSize = max(1, options.beamSize)
            search.bestOf = Self.bestOf
            search.temperature = temperature
            search.maxInitialTimestampIndex = Int((Self.maxInitialTimestamp / WhisperConfiguration.timePrecision).rounded())
            search.seed = seed &* 0x1_0000 &+ UInt64(all.count)
            let result = try search.run(model: model, encoding: encoding, prompt: prompt)
            let text = model.text(of: result.tokens).trimmingCharacters(in: .whitespacesAndNewlines)
            let decoded = Decoded(result: result, temperature: temperature,
                                  compressionRatio: WhisperCompressionRatio.of(text))
            all.append(decoded)
            var needsFallback = false
            if let threshold = options.compressionRatioThreshold {
                if decoded.compressionRatio > threshold { needsFallback = true } else { belowCompressionThreshold.append(decoded) }
            }
            if let threshold = options.logProbabilityThreshold, result.averageLogProbability < threshold {
                needsFallback = true
            }
            if let noSpeech = options.noSpeechThreshold, result.noSpeechProbability > noSpeech,
               let threshold = options.logProbabilityThreshold, result.averageLogProbability < threshold {
                needsFallback = false
            }
            if !needsFallback { return decoded }
        }
        let pool = belowCompressionThreshold.isEmpty ? all : belowCompressionThreshold
        var best = pool.max { $0.result.averageLogProbability < $1.result.averageLogProbability }!
        best.temperature = temperatures.last!
        return best
    }

    struct Piece {
        var start: Double
        var end: Double
        var tokens: [Int]
        /// Filled when word timestamps are asked for.
        var words: [TranscriptWord]?
    }

    /// The window's tokens end with a text token and then one timestamp: nothing was said after it.
    static func endsOnSingleTimestamp(_ tokens: [Int], timestampBegin: Int) -> Bool {
        tokens.count >= 2 && tokens[tokens.count - 2] < timestampBegin && tokens[tokens.count - 1] >= timestampBegin
    }

    /// faster-whisper's `_split_segments_by_timestamps`: segments between consecutive timestamp
    /// tokens, and where to seek next.
    func split(_ tokens: [Int], timeOffset: Double, segmentSize: Int, segmentDuration: Double, seek: Int,
               timestampBegin: Int) -> ([Piece], Int) {
        let precision = WhisperConfiguration.timePrecision
        let singleTimestampEnding = Self.endsOnSingleTimestamp(tokens, timestampBegin: timestampBegin)
        let consecutive = tokens.indices.filter { $0 > 0 && tokens[$0] >= timestampBegin && tokens[$0 - 1] >= timestampBegin }
        var pieces: [Piece] = []
        if !consecutive.isEmpty {
            var slices = consecutive
            if singleTimestampEnding { slices.append(tokens.count) }
            var last = 0
            for current in slices {
                let sliced = Array(tokens[last..<current])
                let start = timeOffset + Double(sliced[0] - timestampBegin) * precision
                let end = timeOffset + Double(sliced[sliced.count - 1] - timestampBegin) * precision
                pieces.append(Piece(start: start, end: end, tokens: sliced))
                last = current
            }
            if singleTimestampEnding {
                return (pieces, seek + segmentSize)
            }
            let lastPosition = tokens[last - 1] - timestampBegin
            return (pieces, seek + lastPosition * Self.inputStride)
        }
        var duration = segmentDuration
        if let lastTimestamp = tokens.last(where: { $0 >= timestampBegin }), lastTimestamp != timestampBegin {
            duration = Double(lastTimestamp - timestampBegin) * precision
        }
        pieces.append(Piece(start: timeOffset, end: timeOffset + duration, tokens: tokens))
        return (pieces, seek + segmentSize)
    }
}
