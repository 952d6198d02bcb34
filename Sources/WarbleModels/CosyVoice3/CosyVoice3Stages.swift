import Foundation
import ONNXRuntime
import WarbleSpeech

/// CosyVoice 3's three stages driven one at a time, for `warble bench stages cosyvoice3` (package access,
/// not public API): the request's control flow is `render`'s, with the text given as token ids and
/// the voice as arrays, so that a benchmark can time the LLM token by token, the flow and HiFT apart.
package struct CosyVoice3Stages: Sendable {
    let model: CosyVoice3Model
    let request: CosyVoice3Request

    /// `promptTextIDs` must hold `<|endofprompt|>` (151646); the LLM runs at most 20 × `ttsTextIDs.count`
    /// steps (at least 2 ×). `promptMel` is `[frames, 80]` frame-major.
    package init(model: CosyVoice3Model, promptTextIDs: [Int], ttsTextIDs: [Int], promptTokens: [Int], promptMel: [Float],
                 embedding: [Float], seed: UInt64) {
        self.model = model
        let prompt = CosyVoice3Prompt(embedding: embedding, tokens: promptTokens, mel: promptMel,
                                      melFrames: promptMel.count / CosyVoice3Prompt.melChannels, transcript: "")
        request = CosyVoice3Request(prompt: prompt, promptTextIDs: promptTextIDs, ttsTextIDs: ttsTextIDs, transcriptTokenCount: 1,
                                    seed: seed, noise: CosyVoice3Noise(seed: seed))
    }

    /// The model in `directory` with its sessions on `threads` intra-op threads (one inter-op thread).
    package static func load(directory: URL, variant: String?, threads: Int) throws -> CosyVoice3Model {
        try CosyVoice3Model(directory: directory, configuration: CosyVoice3Configuration(variant: variant),
                            sessionOptions: SessionOptions(intraOpThreads: threads, interOpThreads: 1))
    }

    /// A fresh token loop (prefill on the first `next`).
    package func tokens() -> Tokens { Tokens(generation: request.generation(model.llm)) }

    /// The LLM's token loop of one request.
    package struct Tokens {
        var generation: CosyVoice3TokenGeneration
        let cancel = CancellationToken()

        /// The next token after the silence filter, nil when the loop has ended.
        package mutating func next() throws -> Int? { try generation.next(cancel: cancel) }
        /// Tokens sampled so far (before the silence filter).
        package var sampled: Int { generation.produced.count }
        package var maxLength: Int { generation.maxLength }
    }

    /// The flow's mel `[80, frames]` of `tokens` (one-shot, finalize), without the prompt's frames.
    package func mel(tokens: [Int]) throws -> (values: [Float], frames: Int) {
        try CancellationToken().withRunOptions { options in
            let speaker = try model.flow.speaker(request.prompt.embedding, options: options)
            return try model.flow.mel(tokens: tokens, prompt: request.prompt, speaker: speaker, noise: request.noise, finalize: true,
                                      options: options)
        }
    }

    /// HiFT's audio of a mel `[80, frames]` (one-shot, finalize).
    package func audio(mel: [Float], frames: Int) throws -> [Float] {
        try CancellationToken().withRunOptions { options in
            try model.hift.audio(mel: mel, frames: frames, finalize: true, options: options)
        }
    }
}
