import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// A Piper (VITS) voice: espeak-ng phonemes → ids → ONNX → audio.
///
/// When the set-up split the voice at its decoder input (the manifest's `split`), an utterance runs
/// part A once and then decodes in growing windows, so its first audio is out long before the whole
/// sentence is decoded, with output equal to one-shot decoding. Otherwise it runs the whole model.
///
/// Immutable and shared: the sessions serve every request. Rate maps to the length scale
/// (`length_scale / rate`); noise scales come from the voice's configuration unless overridden.
public final class PiperVoice: UtteranceRenderer, @unchecked Sendable {
    // All stored properties are immutable; Session is Sendable and thread-safe.
    public let modelID: String
    public let configuration: PiperConfiguration
    public let voices: [VoiceDescription]
    /// The whole model (when the voice is not split).
    let session: Session?
    /// Part A and part B of a split voice (part A opened fast, see `PiperEncoderSlot`).
    let encoderSlot: PiperEncoderSlot?
    /// Whether the model takes a speaker id (`sid`): a multi-speaker voice.
    private let takesSpeaker: Bool
    let decoder: Session?
    public let split: PiperSplit?
    public var sampleRate: Int { configuration.audio.sampleRate }
    public var defaultVoice: String { voices.first?.id ?? modelID }
    public let language: String
    public let chunkCharacters: Int
    /// Above 2 the one-frame minimum of every phoneme (and of the pads between them) holds Piper back
    /// (3 gave 2.3×): faster rates are time-stretched from 2.
    public var fastestRate: Double { 2 }
    /// noise_scale and noise_w; set both to 0 for deterministic output.
    public let noiseScale: Float
    public let noiseW: Float

    private let priming: PiperDecoderPriming?
    /// Voice id → speaker, for a multi-speaker voice whose speakers are offered as voices.
    private let voiceSpeakers: [String: String]
    private let ids: PiperPhonemeEncoder
    private let phonemizer: any Phonemizer

    /// Loads the voice from an installed model directory (`model.onnx`, `config.json`).
    public init(
        directory: URL, manifest: ModelManifest, files decoded: PiperModelConfiguration? = nil, phonemizer: any Phonemizer,
        sessionOptions: SessionOptions = .init(), noiseScale: Float? = nil, noiseW: Float? = nil, chunkCharacters: Int = 400,
        useSplit: Bool = true, fastStart: Bool = false, primeAfterWindows: Int = 1
    ) throws {
        // The engine hands over the configuration it decoded from the manifest; other callers have it read here.
        let files = try decoded ?? ModelConfigurationReader.decode(PiperModelConfiguration.self, from: manifest)
        let configURL = directory.appendingPathComponent(files.config)
        let modelURL = directory.appendingPathComponent(files.model)
        guard let data = FileManager.default.contents(atPath: configURL.path) else {
            throw ModelError(.badModel, "\(configURL.path) is missing; install the voice again with warble models pull")
        }
        do {
            configuration = try JSONDecoder().decode(PiperConfiguration.self, from: data)
        } catch {
            throw ModelError(.badModel, "\(configURL.path) is not a Piper voice configuration: \(error)")
        }
        ids = try PiperPhonemeEncoder(map: configuration.phonemeIDMap)
        // Every sentence has another length: ONNX Runtime's per-shape memory patterns would only pile up
        // (measured: 350 → 250 MiB peak over 1,800 words, same speed).
        var sessionOptions = sessionOptions
        sessionOptions.memoryPattern = false
        let split = useSplit ? files.split : nil
        let inputs: Session
        if let split {
            let a = try PiperEncoderSlot(url: directory.appendingPathComponent(split.encoder), options: sessionOptions,
                                         fastStart: fastStart)
            let b = try Session(contentsOf: directory.appendingPathComponent(split.decoder), options: sessionOptions)
            guard b.input(named: split.latent) != nil else {
                throw ModelError(.badModel, "\(split.decoder) has no input '\(split.latent)'; install the voice again with warble models pull")
            }
            (encoderSlot, decoder, session, inputs) = (a, b, nil, a.current)
            priming = PiperDecoderPriming(decoder: b, split: split, afterWindows: primeAfterWindows)
        } else {
            let whole = try Session(contentsOf: modelURL, options: sessionOptions)
            (encoderSlot, decoder, session, inputs) = (nil, nil, whole, whole)
            priming = nil
        }
        self.split = split
        voiceSpeakers = files.voiceSpeakers ?? [:]
        takesSpeaker = inputs.input(named: "sid") != nil
        for name in ["input", "input_lengths", "scales"] where inputs.input(named: name) == nil {
            throw ModelError(.badModel, "\(modelURL.path) has no input '\(name)': it is not a Piper voice")
        }
        modelID = manifest.id
        language = configuration.espeak.voice
        voices = manifest.voices.map {
            VoiceDescription(id: $0.id, displayName: $0.displayName ?? $0.id, language: $0.language, model: manifest.id,
                             sampleRate: manifest.sampleRate, gender: $0.gender)
        }
        self.phonemizer = phonemizer
        self.noiseScale = noiseScale ?? configuration.inference.noiseScale
        self.noiseW = noiseW ?? configuration.inference.noiseW
        self.chunkCharacters = chunkCharacters
    }

    public func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
        let rendering = try begin(utterance, voice: voice, rate: rate, cancel: cancel)
        var samples: [Float] = []
        samples.reserveCapacity(rendering.totalSamples)
        while !rendering.isFinished { samples += try rendering.nextPiece(cancel: cancel) }
        return RenderedUtterance(samples: samples, wordWeights: rendering.wordWeights)
    }

    public func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws
        -> any UtteranceRendering
    {
        if voice.conditioning != nil {
            throw ModelError(.unknownVoice, "'\(voice.id)' is a cloned voice; Piper voices cannot take one (\(modelID) speaks only its own voice)")
        }
        let phonemes = try utterance.phonemes ?? phonemizer.phonemize(utterance.text, language: language)
        let weights = Self.wordWeights(phonemes)
        let controls = controls(of: voice)
        guard let split, let encoderSlot, let decoder else {
            let samples = try cancel.withRunOptions {
                try synthesize(phonemes: phonemes, rate: rate, controls: controls, options: $0)
            }
            return WholeRendering(RenderedUtterance(samples: samples, wordWeights: weights))
        }
        let natural = controls.lengthScale.map(Float.init) ?? configuration.inference.lengthScale
        let z = try cancel.withRunOptions { options in
            try Self.latent(at: rate, natural: natural) { scale in
                let feeds = try feeds(phonemes: phonemes, lengthScale: scale, controls: controls)
                let z = try encoderSlot.sessionForRun().run(feeds, outputs: [split.latent], options: options).tensors[0]
                guard z.shape.count == 3, z.shape[0] == 1 else {
                    throw ModelError(.badModel, "\(split.encoder) gave \(z) for \(split.latent), expected [1, channels, frames]")
                }
                return (z, z.shape[2])
            }
        }
        return PiperWindowedRendering(z: try z.scalars(as: Float.self), channels: z.shape[1], frames: z.shape[2],
                                      split: split, decoder: decoder, priming: priming, wordWeights: weights,
                                      firstWindow: utterance.opensRequest ? 32 : PiperWindowedRendering.maximumWindow)
    }

    /// The voice's controls, with the speaker its id names when the request names none.
    func controls(of voice: RenderVoice) -> VoiceControls {
        var controls = voice.controls
        if controls.speaker == nil { controls.speaker = voiceSpeakers[voice.id] }
        return controls
    }

    /// Audio for a phoneme string (IPA as espeak-ng writes it, punctuation kept), in one pass.
    public func synthesize(phonemes: String, rate: Double = 1, controls: VoiceControls = .init(),
                           options: RunOptions? = nil) throws -> [Float] {
        let natural = controls.lengthScale.map(Float.init) ?? configuration.inference.lengthScale
        let feeds = try feeds(phonemes: phonemes, lengthScale: natural / Float(max(rate, 0.05)), controls: controls)
        if let split, let encoderSlot, let decoder {
            let z = try encoderSlot.sessionForRun().run(feeds, outputs: [split.latent], options: options).tensors[0]
            return try decoder.run([split.latent: z], options: options).tensors[0].scalars(as: Float.self)
        }
        guard let session else { throw ModelError(.badModel, "the Piper voice has no model session") }
        return try session.run(feeds, options: options).tensors[0].scalars(as: Float.self)
    }


    /// The encoder's output at `rate`, from `encode(lengthScale) -> (output, frames)`.
    ///
    /// Piper rounds each phoneme's duration up to whole frames (and the pads between phonemes last a
    /// frame at least), so dividing the length scale by the rate alone speaks too slowly at fast rates
    /// (2 gave 1.6×, 3 gave 1.9×). At any rate but 1 the frame count at the voice's own scale is taken
    /// first, and the scale is then corrected by secant steps until the count is within 2 % of
    /// `natural / rate` (at most four more runs of the encoder, which is a small part of the work).
    static func latent<Output>(at rate: Double, natural: Float,
                               encode: (Float) throws -> (output: Output, frames: Int)) throws -> Output {
        let first = Double(natural) / max(rate, 0.05)
        guard abs(rate - 1) > 0.005 else { return try encode(natural).output }
        let reference = try encode(natural)
        let target = Double(reference.frames) / rate
        var previous = (scale: Double(natural), frames: Double(reference.frames))
        var scale = first
        var current = try encode(Float(scale))
        for _ in 0..<3 {
            let frames = Double(current.frames)
            guard abs(frames - target) > max(1, 0.02 * target), frames != previous.frames else { break }
            let next = scale + (target - frames) * (scale - previous.scale) / (frames - previous.frames)
            guard next.isFinite else { break }
            previous = (scale, frames)
            scale = min(max(next, first * 0.25), first * 2)
            current = try encode(Float(scale))
        }
        return current.output
    }

    private func feeds(phonemes: String, lengthScale: Float, controls: VoiceControls) throws -> [String: Tensor] {
        let (ids, _) = self.ids.encode(phonemes)
        let noise = controls.noiseScale.map(Float.init) ?? noiseScale
        let noiseW = controls.noiseW.map(Float.init) ?? self.noiseW
        var feeds: [String: Tensor] = [
            "input": try Tensor(ids, shape: [1, ids.count]),
            "input_lengths": try Tensor([Int64(ids.count)], shape: [1]),
            "scales": try Tensor([noise, lengthScale, noiseW], shape: [3]),
        ]
        if takesSpeaker {
            feeds["sid"] = try Tensor([Int64(try speakerID(controls.speaker))], shape: [1])
        }
        return feeds
    }

    /// The voice's speakers, by name where it names them ("0", "1", … otherwise).
    public var speakers: [String] {
        if let map = configuration.speakerIDMap, !map.isEmpty { return map.sorted { $0.value < $1.value }.map(\.key) }
        return (0..<max(1, configuration.numSpeakers ?? 1)).map(String.init)
    }

    /// The number of `speaker` (a name of the voice's speaker map, or a number below its speaker count).
    func speakerID(_ speaker: String?) throws -> Int {
        guard let speaker else { return 0 }
        let count = max(1, configuration.numSpeakers ?? configuration.speakerIDMap?.count ?? 1)
        if let id = configuration.speakerIDMap?[speaker] { return id }
        if let number = Int(speaker), (0..<count).contains(number), takesSpeaker || number == 0 {
            return number
        }
        if count == 1 {
            throw ModelError(.badInput, "\(modelID) has one speaker; leave --speaker out (or give 0)")
        }
        throw ModelError(.badInput, "\(modelID) has no speaker '\(speaker)'; its speakers are "
            + TextList.shortened(speakers) + " (or their numbers, 0 to \(count - 1))")
    }

    public func validate(_ controls: VoiceControls) throws {
        guard controls.isPiperOnly else {
            throw ModelError(.badInput, "\(modelID) takes no seed, instruction or cross-lingual setting (CosyVoice 3 voices do; "
                + "Piper's own randomness is drawn inside the model)")
        }
        _ = try speakerID(controls.speaker)
    }

    /// Phonemes per space-separated word, for word timing.
    static func wordWeights(_ phonemes: String) -> [Int] {
        phonemes.split(separator: " ").map { word in word.unicodeScalars.filter { $0.properties.isAlphabetic }.count }
    }
}
