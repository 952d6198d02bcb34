import ArgumentParser
import Foundation
import WarbleEngine

/// `warble voice check NAME`: how close a cloned voice sounds to its clip.
struct VoiceCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Speak held-out sentences with a library voice and score how close it sounds to its clip.",
        discussion: """
            The score is the cosine between speaker embeddings (a d-vector model) of the voice's speech and of \
            the clip: about 0.9 for the same speaker, 0.1–0.45 for different ones. The stock voices' scores are \
            shown beside it: a clone is worth keeping when it beats the best of them.
            """)

    /// Sentences no Kokoro search speaks.
    static let sentences = SearchTexts.heldOut

    @Argument(help: "The voice's name.")
    var name: String
    @Option(help: "How many of the held-out sentences to speak (1–4).")
    var sentences = 4
    @Flag(help: "Print JSON.")
    var json = false
    @OptionGroup(title: "Models installed on first use") var firstUse: FirstUseOptions

    func validate() throws {
        guard (1...Self.sentences.count).contains(sentences) else {
            throw ValidationError("--sentences must be between 1 and \(Self.sentences.count)")
        }
    }

    func run() async throws {
        _ = try VoiceLibraryAccess.profile(name)
        try await FirstUse.ensureSpeakerEmbedder(command: "voice check", offline: firstUse.offline)
        let check = try await EngineFactory.make().checkVoice(name, sentences: Array(Self.sentences.prefix(sentences)))
        if json {
            print(try WarbleJSON.string(check, pretty: true))
        } else {
            Self.report(check)
        }
    }

    static func report(_ check: VoiceCheck) {
        let best = check.stock.first
        print(String(format: "Similarity to the clip: %.3f", check.voice.similarity)
              + (best.map { String(format: " (best stock voice: %@ at %.3f, %+.3f)", $0.voice, $0.similarity, check.voice.similarity - $0.similarity) } ?? ""))
    }
}
