import Foundation
import Testing
@testable import WarbleModels

extension ChatterboxTests {
    /// The reference's stream of one case (tools/chatterbox/make_fixtures.py, the case's `stream`).
    struct GoldenStream: Decodable {
        struct Chunk: Decodable { let first_token: Int; let end_token: Int; let emitted: Int; let final: Bool }
        let chunks: [Chunk]
        let crossfade_windows: [[Int]]
        let first: Int
        let cap: Int
    }

    struct StreamCase: Decodable { let name: String; let speech_tokens: [Int]; let stream: GoldenStream? }
    struct StreamCases: Decodable { let cases: [StreamCase] }

    /// The schedule: 25, 50, 100, then 200 new tokens a chunk; the final chunk holds the rest. The fixed
    /// schedule is the rule before (25 each).
    @Test func theChunksGrowTo200Tokens() {
        let growing = ChatterboxChunkSchedule.growing
        #expect(growing.plan(speechTokens: 1024).map(\.tokens.count) == [25, 50, 100, 200, 200, 200, 200, 49])
        #expect(growing.plan(speechTokens: 1024).map(\.final) == Array(repeating: false, count: 7) + [true])
        #expect(growing.plan(speechTokens: 250).map(\.tokens) == [0..<25, 25..<75, 75..<175, 175..<250])
        #expect(growing.plan(speechTokens: 75).map(\.tokens) == [0..<25, 25..<75, 75..<75], "a final chunk of silence only")
        #expect(growing.plan(speechTokens: 24).map(\.tokens) == [0..<24])
        #expect(ChatterboxChunkSchedule.fixed.plan(speechTokens: 60).map(\.tokens) == [0..<25, 25..<50, 50..<60])
    }

    /// Streamed as the reference streams it, token by token: the same chunks (new tokens and emitted
    /// samples), the joined audio equal to the reference's stream (1e-5), which equals the one-shot decode
    /// away from the crossfade windows; as long as the one-shot audio. 75 tokens: chunks of 25 and 50 and one
    /// of silence; 1,024 tokens: doubling to the cap of 200 and a final chunk of 49.
    @Test(arguments: ["fp32", "q4f16"], ["long_greedy", "forever_greedy"])
    func theStreamMatchesTheReferences(variant: String, name: String) throws {
        let (_, codec) = try Self.parts(variant)
        let voice = try Self.voice(variant)
        let cases = try JSONDecoder().decode(StreamCases.self, from: try Self.data("lm_\(variant).json")).cases
        let golden = try #require(cases.first { $0.name == name })
        let reference = try #require(golden.stream)
        #expect(reference.first == ChatterboxChunkSchedule.growing.first && reference.cap == ChatterboxChunkSchedule.growing.cap)

        var stream = ChatterboxStream(codec: codec, voice: voice)
        var joined: [Float] = []
        var chunks: [(tokens: Range<Int>, emitted: Int)] = []
        for token in golden.speech_tokens {
            let start = stream.start
            let piece = try stream.append(token, options: nil)
            if !piece.isEmpty { chunks.append((start..<stream.start, piece.count)); joined += piece }
        }
        let start = stream.start
        let last = try stream.finish(options: nil)
        chunks.append((start..<golden.speech_tokens.count, last.count))
        joined += last

        #expect(chunks.map(\.tokens) == reference.chunks.map { $0.first_token..<$0.end_token })
        #expect(chunks.map(\.emitted) == reference.chunks.map(\.emitted))
        #expect(chunks.map(\.tokens) == ChatterboxChunkSchedule.growing.plan(speechTokens: golden.speech_tokens.count).map(\.tokens))
        if name == "long_greedy" {
            #expect(chunks.map(\.emitted) == [25 * 960 - 240, 50 * 960, 3 * 960 + 240])
        }
        let windows = chunks.dropFirst().map { ($0.tokens.lowerBound * 960 - 240)..<($0.tokens.lowerBound * 960) }
        #expect(windows.map { [$0.lowerBound, $0.upperBound] } == reference.crossfade_windows)

        let streamed = try Self.floats("stream_\(variant)_\(name).f32")
        let oneShot = try Self.floats("wave_\(variant)_\(name).f32")
        #expect(joined.count == streamed.count && joined.count == oneShot.count && joined.count == (golden.speech_tokens.count + 3) * 960)
        let diff = zip(joined, streamed).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
        #expect(diff < 1e-5, "max abs \(diff) against the reference's stream")
        let outside = joined.indices.filter { i in !windows.contains { $0.contains(i) } }
        let away = outside.reduce(Float(0)) { max($0, abs(joined[$1] - oneShot[$1])) }
        #expect(away < 1e-5, "away from the crossfades the stream is the one-shot audio (max abs \(away))")
    }
}
