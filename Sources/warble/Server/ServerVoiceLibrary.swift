import Foundation
import WarbleEngine
import WarbleServer

/// The engine's voice library as `warble serve` changes it.
struct ServerVoiceLibrary: VoiceLibraryBackend {
    let engine: Engine

    func addVoice(_ upload: VoiceUpload, progress: @escaping @Sendable (VoiceCloneProgress) -> Void) async throws
        -> VoiceUploadResult {
        if upload.isCodes {
            let profile = try await engine.addReferenceCodesVoice(name: upload.name, codes: upload.clip, codesName: upload.clipName,
                                                                  transcript: upload.transcript ?? "", model: upload.model)
            return VoiceUploadResult(id: profile.id, model: profile.model)
        }
        let request = VoiceCloneRequest(
            name: upload.name, clip: upload.clip, clipName: upload.clipName, model: upload.model, transcript: upload.transcript,
            transcribe: upload.transcribe, consent: upload.consent,
            search: VoiceSearch.Options(budget: upload.budgetSeconds, seed: upload.seed), keepStock: upload.keepStock)
        let cancel = CancellationToken()
        let result = try await withTaskCancellationHandler {
            try await engine.addVoice(request, cancel: cancel) { event in progress(Self.progress(event)) }
        } onCancel: {
            cancel.cancel()
        }
        let check = result.profile.source?.speakerEmbedding == nil ? nil
            : try? await engine.checkVoice(result.profile.id, sentences: Array(SearchTexts.heldOut.prefix(2)), stock: false)
        return VoiceUploadResult(id: result.profile.id, model: result.profile.model, similarity: check?.voice.similarity,
                                 startVoice: result.search?.startVoice, startSimilarity: result.search?.startSimilarity,
                                 candidates: result.search?.candidates)
    }

    func removeVoice(_ id: String) async throws {
        guard engine.library.snapshot().profile(id) != nil else {
            throw ModelError(.unknownVoice, "the voice library has no voice '\(id)'")
        }
        do {
            try engine.library.remove(id)
        } catch let error as VoiceLibraryError {
            throw ModelError(.failed, error.message)
        }
    }

    /// The engine's clone event as the server reports it.
    static func progress(_ event: VoiceCloneEvent) -> VoiceCloneProgress {
        switch event {
        case .clip(let fileSeconds, let speechSeconds, let level, let shortened):
            return .init(stage: .clip, message: String(format: "the clip: %.1f s, %.1f s of speech at %.0f dBFS", fileSeconds, speechSeconds,
                                                       level) + (shortened ? " (cut to the longest the model takes)" : ""))
        case .transcript(let text):
            return .init(stage: .transcript, message: "heard: \(text)")
        case .searchStarted(let model, let dimensions, let resumed):
            return .init(stage: .searchStarted, message: "\(resumed ? "resuming" : "starting") the voice search of \(model) "
                + "(\(dimensions) directions)", fraction: 0)
        case .searching(let round):
            switch round.phase {
            case .searching:
                return .init(stage: .searching, message: String(format: "round %d: %d candidates, best similarity %.3f", round.generation,
                                                                 round.candidates, round.best),
                             fraction: round.budget > 0 ? round.seconds / round.budget : nil, similarity: round.best)
            case .choosing(let judged, let of):
                return .init(stage: .choosing, message: "choosing among the finalists: \(judged) of \(of) heard",
                             fraction: of > 0 ? Double(judged) / Double(of) : nil, similarity: round.best)
            }
        }
    }
}
