/// What streaming `speechTokens` tokens in a chunk schedule costs, for `warble bench stages chatterbox` (the
/// formulas of tools/bench/chatterbox_bench.py): the language model's measured time a token, and the decoder's
/// time for each chunk's input (its context, new tokens and, for the final chunk, the silence tokens; the
/// decoder adds the voice's prompt tokens). Tokens and chunks are made one after the other, as
/// `ChatterboxRendering` makes them.
struct ChatterboxStreamCost {
    /// The decoder's seconds summed over the chunks.
    var decoderSeconds = 0.0
    /// Seconds from the first step to the first chunk's audio (after the prefill).
    var firstAudioSeconds = 0.0
    /// Seconds the playback waits for audio after it has begun (0: the stream keeps up).
    var stallSeconds = 0.0
    /// (tokens × time a token + decoder seconds) / seconds of audio.
    var rtf = 0.0

    /// The decoder's input for each chunk, in tokens after the prompt: its context, new tokens and (final) silence.
    static func decoderInputs(_ schedule: ChatterboxChunkSchedule, speechTokens n: Int) -> [Int] {
        schedule.plan(speechTokens: n).map { min(ChatterboxStream.contextTokens, $0.tokens.lowerBound) + $0.tokens.count + ($0.final ? 3 : 0) }
    }

    /// `decoder(n)` gives the decoder's seconds for a chunk input of n tokens after the prompt.
    init(schedule: ChatterboxChunkSchedule, speechTokens n: Int, perToken: Double, decoder seconds: (Int) -> Double) {
        let (perSample, crossfade) = (ChatterboxCodec.samplesPerToken, ChatterboxStream.crossfade)
        let inputs = Self.decoderInputs(schedule, speechTokens: n)
        var ready = 0.0, playedTo = 0.0
        for (k, chunk) in schedule.plan(speechTokens: n).enumerated() {
            let decoder = seconds(inputs[k])
            decoderSeconds += decoder
            ready += Double(chunk.tokens.count) * perToken + decoder
            let emitted = chunk.final
                ? (chunk.tokens.count + 3) * perSample + (k > 0 ? crossfade : 0)
                : chunk.tokens.count * perSample - (k == 0 ? crossfade : 0)
            if k == 0 {
                (firstAudioSeconds, playedTo) = (ready, ready)
            } else if ready > playedTo {
                (stallSeconds, playedTo) = (stallSeconds + ready - playedTo, ready)
            }
            playedTo += Double(emitted) / Double(ChatterboxCodec.sampleRate)
        }
        rtf = (Double(n) * perToken + decoderSeconds) / (Double(n) / Double(ChatterboxBench.tokensPerSecond))
    }
}
