import Foundation
import WarbleAudio
import WarbleEngine
import WarbleModels

/// The real `TranscriptionBackend`: the Whisper models installed in the model store. Each model is
/// loaded on its first request and then shared by every request (a `WhisperModel` is immutable;
/// each transcription owns its decoding state).
public actor WhisperBackend: TranscriptionBackend {
    let store: ModelStore
    /// ONNX Runtime intra-op threads per model (0: ONNX Runtime's choice).
    let threads: Int
    private var loads: [String: Task<WhisperModel, any Error>] = [:]
    private var installed: [String: InstalledModel]?

    public init(store: ModelStore = ModelStore(), threads: Int = 0) {
        self.store = store
        self.threads = threads
    }

    public func recognitionModels() -> [RecognitionModelDescription] {
        scan().values.sorted { $0.manifest.id < $1.manifest.id }.map { model in
            let languages = model.manifest.languages.isEmpty ? ["en"] : model.manifest.languages
            return RecognitionModelDescription(id: model.manifest.id, languages: languages,
                                               canTranslate: languages.count > 1)
        }
    }

    /// The model `id`, loading it on first use (concurrent first requests share one load).
    public func model(_ id: String) async throws -> WhisperModel {
        if let load = loads[id] { return try await load.value }
        guard let directory = scan()[id]?.directory else {
            throw ModelError(.badModel, "speech recognition model '\(id)' is not installed (installed: "
                + scan().keys.sorted().joined(separator: ", ") + ")")
        }
        let threads = threads
        let load = Task.detached { try WhisperModel(directory: directory, threads: threads) }
        loads[id] = load
        do {
            return try await load.value
        } catch {
            loads[id] = nil  // a later request tries again (the files may be fixed meanwhile)
            throw error
        }
    }

    public nonisolated func transcribe(_ audio: AudioBuffer, model id: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let model = try await self.model(id)
                    for try await segment in WhisperRecognizer(model: model).transcribe(audio, options: options) {
                        continuation.yield(segment)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The installed Whisper models by id, read once.
    private func scan() -> [String: InstalledModel] {
        if let installed { return installed }
        let found = Dictionary(store.scan().models.filter { $0.manifest.family == "whisper" }.map { ($0.manifest.id, $0) },
                               uniquingKeysWith: { first, _ in first })
        installed = found
        return found
    }
}
