import Foundation

/// A blend of stock voices of one model, written as Kokoro-FastAPI takes it: `a+b` (equal parts) or
/// `a(0.7)+b(0.3)` (weights, normalised to sum to 1). Kokoro blends the voices' style tables.
public struct VoiceMix: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public var voice: String
        /// This part's share, after normalising: in (0, 1].
        public var weight: Double

        public init(voice: String, weight: Double) {
            self.voice = voice
            self.weight = weight
        }
    }

    public var parts: [Part]

    /// The most voices one mix may hold.
    public static let maximumParts = 8

    /// The mix `text` writes; nil when it is a plain voice id (no `+` and no parenthesised weight).
    public static func parse(_ text: String) throws(ModelError) -> VoiceMix? {
        guard text.contains("+") || text.contains("(") else { return nil }
        let pieces = text.split(separator: "+", omittingEmptySubsequences: false)
        guard pieces.count <= maximumParts else {
            throw ModelError(.badInput, "a voice mix holds at most \(maximumParts) voices; '\(text)' has \(pieces.count)")
        }
        var parts: [Part] = []
        for piece in pieces {
            let part = piece.trimmingCharacters(in: .whitespaces)
            var name = part
            var weight = 1.0
            if let open = part.firstIndex(of: "(") {
                guard part.hasSuffix(")"), let value = Double(part[part.index(after: open)..<part.index(before: part.endIndex)]
                    .trimmingCharacters(in: .whitespaces)) else {
                    throw ModelError(.badInput, "'\(part)' in voice mix '\(text)' is not VOICE or VOICE(WEIGHT), e.g. af_bella(0.7)")
                }
                name = part[..<open].trimmingCharacters(in: .whitespaces)
                weight = value
            }
            guard !name.isEmpty else {
                throw ModelError(.badInput, "voice mix '\(text)' has an empty voice name; write a+b or a(0.7)+b(0.3)")
            }
            guard weight.isFinite, weight > 0, weight <= 1000 else {
                throw ModelError(.badInput, "the weight of '\(name)' in voice mix '\(text)' must be a number above 0 (up to 1000), got \(weight)")
            }
            if let index = parts.firstIndex(where: { $0.voice == name }) {
                parts[index].weight += weight
            } else {
                parts.append(Part(voice: name, weight: weight))
            }
        }
        let total = parts.reduce(0) { $0 + $1.weight }
        return VoiceMix(parts: parts.map { Part(voice: $0.voice, weight: $0.weight / total) })
    }

    /// The mix with each part's voice replaced by `resolve(voice)` (a display name by its id, say).
    public func mapVoices(_ resolve: (String) throws -> String) rethrows -> VoiceMix {
        VoiceMix(parts: try parts.map { Part(voice: try resolve($0.voice), weight: $0.weight) })
    }

    /// The canonical spelling, used as the voice's id: `a(0.7)+b(0.3)`.
    public var id: String {
        parts.map { "\($0.voice)(\(String(format: "%.4g", $0.weight)))" }.joined(separator: "+")
    }
}

/// A synthesizer that can blend its stock voices into one (see `VoiceMix`).
public protocol VoiceMixing: Sendable {
    /// The conditioning a voice of `mix` speaks with; its parts are stock voice ids of this model.
    func conditioning(for mix: VoiceMix) throws -> VoiceConditioning
}
