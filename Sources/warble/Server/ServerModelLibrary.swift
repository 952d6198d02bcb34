import Foundation
import WarbleEngine
import WarbleHub
import WarbleServer
import WarbleSpeech

/// The installed models as `warble serve` changes them: the listing of `warble models available`, the Hub client,
/// pull plan and checks of `warble models pull`, the removal of `warble models remove`.
struct ServerModelLibrary: ModelLibraryBackend {
    let engine: Engine
    let settings: ServerConfiguration

    func pullableModels() async throws -> [PullableModel] {
        let listing = try ModelsAvailableCommand.parse([])
        let catalogue: ModelCatalogue
        do { catalogue = try ModelCatalogue.load() } catch let error as HubError { throw APIError(.internalServerError, error.message, type: "server_error") }
        let store = ModelStore()
        let installed = Set(store.scan().models.map(\.manifest.id))
        // Piper's voices that cannot be read (no Hub, nothing cached) are left out; the catalogue is listed all the same.
        let entries = try await listing.listing(catalogue: catalogue, store: store, installed: installed, ability: nil, warn: { _ in }).entries
        return entries.map {
            PullableModel(id: $0.id, reference: $0.reference, family: $0.family, language: $0.language, quality: $0.quality,
                          bytes: $0.bytes, licence: $0.licence, gated: $0.gated, installed: $0.installed, runs: $0.runs)
        }
    }

    func pullModel(_ reference: String, progress: @escaping @Sendable (ModelPullProgress) -> Void) async throws -> PulledModel {
        do {
            let parsed = try ModelReference(parsing: reference, family: nil)
            // As `warble models pull`: the models this one speaks through (NeuTTS's NeuCodec) follow it when missing.
            let command = try ModelsPullCommand.parse(["--", reference])
            let outcome = try await HubClient.with(userAgent: "warble/\(WarbleVersion.number)") { client in
                let pull = try HubPull(client: client, installer: ModelInstaller(), tools: ConversionTools.locate())
                let report: @Sendable (ModelInstaller.Progress) -> Void = { p in
                    progress(ModelPullProgress(file: p.file, fileBytes: p.fileBytes, fileTotal: p.fileTotal, bytes: p.bytes, total: p.total))
                }
                let outcome = try await pull.pull(parsed, progress: report)
                var queue = [parsed] + command.needed(by: outcome.model, queued: [parsed], store: pull.installer.store)
                var index = 1
                while index < queue.count {
                    let needed = try await pull.pull(queue[index], progress: report)
                    index += 1
                    queue += command.needed(by: needed.model, queued: queue, store: pull.installer.store)
                }
                return outcome
            }
            let manifest = outcome.model.manifest
            if case .alreadyInstalled = outcome {
                return PulledModel(id: manifest.id, bytes: Int64(manifest.totalBytes), alreadyInstalled: true)
            }
            return PulledModel(id: manifest.id, bytes: Int64(manifest.totalBytes), alreadyInstalled: false)
        } catch let error as HubError {
            switch error.kind {
            case .network, .integrity: throw APIError(.badGateway, error.message, type: "server_error", code: "hub_unavailable")
            case .notFound: throw APIError(.notFound, error.message, param: "model", code: "model_not_found")
            default: throw APIError(.badRequest, error.message, param: "model", code: "invalid_value")
            }
        } catch let error as ModelInstallError {
            throw APIError(.badGateway, error.message, type: "server_error", code: "pull_failed")
        }
    }

    func removeModel(_ id: String) async throws {
        if await engine.defaultVoice?.model == id || id == settings.defaultTranscriptionModel || id == settings.defaultTranslationModel {
            throw APIError(.conflict, "\(id) is a default model of this server: it is not removed", param: "id", code: "model_is_default")
        }
        if await engine.loadedModels.contains(id) {
            throw APIError(.conflict, "\(id) is in use (loaded by this server): it is not removed; remove it when the server is stopped "
                + "(warble models remove \(id))", param: "id", code: "model_in_use")
        }
        do {
            try await ModelInstaller().remove(id)
        } catch let error as ModelStoreError where error.kind == .notInstalled {
            throw APIError(.notFound, error.message, param: "id", code: "model_not_found")
        } catch let error as ModelStoreError {
            throw APIError(.badRequest, error.message, param: "id", code: "invalid_value")
        } catch let error as ModelInstallError {
            throw APIError(.badRequest, error.message, param: "id", code: "invalid_value")
        }
    }
}
