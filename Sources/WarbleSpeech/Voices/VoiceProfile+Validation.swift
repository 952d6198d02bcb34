import Foundation
import WarbleText

extension VoiceProfile {
    /// The largest magnitude of a Kokoro style value taken (the stock voices stay within ±3).
    public static let styleValueLimit: Float = 100
    /// The largest magnitude of any other stored conditioning value (embeddings, mel frames, encoder outputs).
    public static let conditioningValueLimit: Float = 1e6
    /// The largest token or codec code id taken (the families' vocabularies are far below it).
    public static let tokenLimit = 1 << 20

    /// The first thing wrong with this profile as read from a file, or nil: every field is checked (a valid id
    /// and model id, printable names and texts of bounded length, a creation date between 2000 and tomorrow,
    /// finite conditioning values within the families' ranges), so that a crafted file can neither speak
    /// garbage nor put control sequences on a terminal or a path outside the store into a model name.
    public var problem: String? {
        guard Self.isValidID(id) else { return "its id '\(PrintableText.escaped(String(id.prefix(80))))' is not a usable voice name" }
        guard !displayName.isEmpty, PrintableText.isPrintable(displayName, maximumLength: 100) else {
            return "its display name is empty, longer than 100 characters or holds control characters"
        }
        guard Self.isValidID(model), !model.contains("..") else {
            return "its model '\(PrintableText.escaped(String(model.prefix(80))))' is not a model id"
        }
        guard PrintableText.isLanguageTag(language) else { return "its language '\(PrintableText.escaped(String(language.prefix(80))))' is not a language tag" }
        guard family.count <= 32, family.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return "its family '\(PrintableText.escaped(String(family.prefix(80))))' is not a family name"
        }
        if let gender, !PrintableText.isPrintable(gender, maximumLength: 32) { return "its gender is not a short printable word" }
        let seconds = created.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 946_684_800, seconds <= Date().timeIntervalSince1970 + 86_400 else {
            return "its creation date is not between 2000 and today"
        }
        if let source, let problem = Self.problem(source) { return problem }
        return Self.problem(conditioning)
    }

    private static func problem(_ source: Source) -> String? {
        guard source.clipSHA256.count == 64, source.clipSHA256.allSatisfy(\.isHexDigit) else {
            return "its source clip's SHA-256 is not one"
        }
        guard source.seconds.isFinite, (0...3600).contains(source.seconds) else { return "its source clip's length is not 0–3600 s" }
        for text in [source.transcript, source.consent].compactMap({ $0 })
        where !PrintableText.isPrintable(text, maximumLength: 10_000, allowingLineBreaks: true) {
            return "its source transcript or consent note is longer than 10000 characters or holds control characters"
        }
        if let embedding = source.speakerEmbedding {
            guard embedding.count <= 4096, embedding.allSatisfy({ $0.isFinite && abs($0) <= 10 }) else {
                return "its source speaker embedding is not a unit vector"
            }
        }
        return nil
    }

    private static func problem(_ conditioning: VoiceConditioning) -> String? {
        func bad(_ tensor: StoredTensor, limit: Float) -> Bool {
            !tensor.values.allSatisfy { $0.isFinite && abs($0) <= limit }
        }
        func badTokens(_ tokens: [Int]) -> Bool { !tokens.allSatisfy { (0..<tokenLimit).contains($0) } }
        func badText(_ text: String) -> Bool { !PrintableText.isPrintable(text, maximumLength: 10_000, allowingLineBreaks: true) }
        let limitText = String(format: "%g", conditioningValueLimit)
        switch conditioning {
        case .styleTable(let table):
            if table.values.isEmpty { return "its style table is empty" }
            if bad(table, limit: styleValueLimit) {
                return "its style table holds values that are not numbers or beyond ±\(Int(styleValueLimit)) (stock voices stay within ±3)"
            }
        case .speakerPrompt(let embedding, let tokens, let mel, let transcript):
            if bad(embedding, limit: conditioningValueLimit) || bad(mel, limit: conditioningValueLimit) {
                return "its speaker prompt holds values that are not numbers or beyond ±\(limitText)"
            }
            if badTokens(tokens) { return "its prompt tokens are not token ids" }
            if badText(transcript) { return "its prompt transcript is too long or holds control characters" }
        case .encoderOutputs(let outputs):
            for (name, tensor) in outputs.sorted(by: { $0.key < $1.key }) {
                guard PrintableText.isPrintable(name, maximumLength: 64) else { return "an encoder output's name holds control characters" }
                if bad(tensor, limit: conditioningValueLimit) {
                    return "its encoder output \(name) holds values that are not numbers or beyond ±\(limitText)"
                }
            }
        case .referenceCodes(let codes, let transcript):
            if codes.isEmpty || badTokens(codes) { return "its reference codes are empty or not codec codes" }
            if badText(transcript) { return "its reference transcript is too long or holds control characters" }
        }
        return nil
    }
}
