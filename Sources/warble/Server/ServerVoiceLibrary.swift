import Foundation
import WarbleEngine
import WarbleServer

/// The engine's voice library as `warble serve` changes it.
struct ServerVoiceLibrary: VoiceLibraryBackend {
    let engine: Engine

    func addVoice(_ upload: VoiceUpload) async throws -> VoiceUploadResult {
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
            try await engine.addVoice(request, cancel: cancel)
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
}
