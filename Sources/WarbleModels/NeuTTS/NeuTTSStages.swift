import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// NeuTTS's stages driven one at a time, for `warble bench stages neutts` (package access, not public API):
/// the prompt as `NeuTTSVocabulary` builds it, the authors' sampling loop (`NeuTTSTokenGeneration`,
/// as `render` runs it) with the end token barred for as many tokens as asked, NeuCodec's decoder,
/// and the authors' streaming arithmetic (`NeuTTSStream`), so that a benchmark can time the loop
/// token by token and every chunk's decode apart.
package struct NeuTTSStages: Sendable {
    let vocabulary: NeuTTSVocabulary
    let backbone: NeuTTSBackbone
    let codec: NeuCodecDecoder
    let generation: GenerationConfigFile

    /// The model in `directory` (a NeuTTS repository: the backbone ONNX, `backbone` if named, and
    /// `tokenizer.json`) and the NeuCodec decoder `codec`, their sessions on `threads` intra-op threads
    /// (one inter-op thread).
    package static func load(directory: URL, backbone named: String?, codec: URL, threads: Int) throws -> NeuTTSStages {
        let files = try NeuTTSFiles.locate(in: directory, backbone: named)
        let options = SessionOptions(intraOpThreads: threads, interOpThreads: 1)
        return NeuTTSStages(vocabulary: try NeuTTSVocabulary(tokenizer: try BPETokenizer(tokenizerJSON: files.tokenizer)),
                            backbone: try NeuTTSBackbone(url: files.backbone, context: NeuTTSConfiguration().context, options: options),
                            codec: try NeuCodecDecoder(url: codec, options: options), generation: files.generation)
    }

    /// The backbone's layers (read from its session) and its context.
    package var layers: Int { backbone.layers }
    package var context: Int { backbone.context }
    package static let samplesPerCode = NeuCodecDecoder.samplesPerCode
    package static let sampleRate = NeuCodecDecoder.sampleRate

    /// The prompt ids of `phonemes` spoken like a reference (its phonemes and codes), as `render` builds them.
    package func prompt(referencePhonemes: String, phonemes: String, referenceCodes: [Int]) throws -> [Int] {
        try vocabulary.prompt(referencePhonemes: referencePhonemes, phonemes: phonemes, referenceCodes: referenceCodes)
    }

    /// A fresh sampling loop (the authors' top-k 50, temperature 1, the repository's generation settings, draws from `seed`) over `prompt`
    /// that writes exactly `steps` tokens: the end token is barred for all of them, as the authors'
    /// `min_new_tokens` bars it for the first 50.
    package func tokens(prompt: [Int], steps: Int, seed: UInt64) throws -> Tokens {
        Tokens(generation: try NeuTTSTokenGeneration(backbone: backbone, vocabulary: vocabulary, prompt: prompt,
                                                     sampler: NeuTTSSampling.sampler(generation), seed: seed,
                                                     minNewTokens: steps),
               steps: steps)
    }

    /// One utterance's token loop.
    package struct Tokens {
        var generation: NeuTTSTokenGeneration
        let steps: Int
        let cancel = CancellationToken()

        /// The next token (one step of the backbone), nil after `steps` tokens (or if the loop ended).
        package mutating func next() throws -> Int? {
            guard generation.written.count < steps else { return nil }
            return try generation.next(cancel: cancel)
        }
        /// Tokens written so far (steps run).
        package var written: Int { generation.written.count }
    }

    /// The code a benchmark decodes for a token: its speech code, else the id mod 65,536 (random
    /// weights write any id; real ones write speech tokens, so every token gets a code here).
    package func benchCode(of token: Int) -> Int {
        vocabulary.code(of: token) ?? token % NeuTTSVocabulary.codeCount
    }

    /// NeuCodec's audio for `codes`.
    package func decode(_ codes: [Int]) throws -> [Float] {
        try CancellationToken().withRunOptions { try codec.decode(codes, options: $0) }
    }

    /// The authors' streaming arithmetic over `referenceCodes` then the codes appended, `chunk` codes a chunk.
    package func stream(referenceCodes: [Int], chunk: Int) -> Stream {
        Stream(stream: NeuTTSStream(codec: codec, referenceCodes: referenceCodes, chunk: chunk))
    }

    package struct Stream {
        var stream: NeuTTSStream

        /// Appends a code; returns the settled audio of a chunk when one was decoded (else nothing).
        package mutating func append(_ code: Int) throws -> [Float] {
            var stream = self.stream
            defer { self.stream = stream }
            return try CancellationToken().withRunOptions { try stream.append(code, options: $0) }
        }

        /// The rest of the audio.
        package mutating func finish() throws -> [Float] {
            var stream = self.stream
            defer { self.stream = stream }
            return try CancellationToken().withRunOptions { try stream.finish(options: $0) }
        }
    }
}
