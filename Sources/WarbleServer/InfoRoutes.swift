import Foundation
import Hummingbird
import WarbleSpeech

/// The read-only routes: `GET /v1/models`, `/v1/models/{id}`, `/v1/audio/voices`, `/health`.
struct InfoRoutes<Backend: SpeechBackend>: Sendable {
    let backend: Backend
    let catalog: ModelCatalog<Backend>
    let recognition: RecognitionCatalog
    let admission: AdmissionControl
    let connections: ConnectionLimiter

    struct ModelObject: Codable, Equatable {
        var id: String
        var object = "model"
        var created = 0
        var ownedBy = "warble"
    }

    struct ListObject<Item: Codable & Equatable>: Codable, Equatable {
        var object = "list"
        var data: [Item]
    }

    struct Health: Codable, Equatable {
        var status = "ok"
        var voices: Int
        var active: Int
        var queued: Int
        var maxActive: Int
        var maxQueued: Int
        var requests: AdmissionControl.Counters
        var connections: ConnectionLimiter.Counts
    }

    /// Speech models (aliases first), then recognition models (`whisper-1` first).
    func modelIDs() async -> [String] {
        var ids = await catalog.modelIDs()
        for id in await recognition.modelIDs() where !ids.contains(id) { ids.append(id) }
        return ids
    }

    func models() async -> Response {
        APIJSON.response(ListObject(data: await modelIDs().map { ModelObject(id: $0) }))
    }

    func model(_ id: String) async throws -> Response {
        guard await modelIDs().contains(id) else {
            throw APIError(.notFound, "model '\(id)' does not exist", param: "model", code: "model_not_found")
        }
        return APIJSON.response(ModelObject(id: id))
    }

    func voices() async -> Response {
        let defaultID = await backend.defaultVoiceID()
        let aliases = await catalog.aliasNames()
        return APIJSON.response(ListObject(data: await backend.installedVoices().map {
            VoiceListing($0, isDefault: $0.id == defaultID, aliases: aliases[$0.id] ?? [])
        }))
    }

    func health() async -> Response {
        APIJSON.response(Health(voices: await backend.installedVoices().count, active: await admission.active,
                         queued: await admission.queued, maxActive: admission.maxActive,
                         maxQueued: admission.maxQueued, requests: await admission.counters,
                         connections: connections.current))
    }

}
