import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleSpeech
@testable import WarbleServer

@Suite struct InfoRouteTests {
    @Test func healthReportsVoicesAndSlots() async throws {
        try await withServer(configuration: .init(maxConcurrentSyntheses: 3, maxQueuedRequests: 5)) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            let health = try object(response)
            #expect(health["status"] as? String == "ok")
            #expect(health["voices"] as? Int == 2)
            #expect(health["active"] as? Int == 0)
            #expect(health["max_active"] as? Int == 3)
            #expect(health["max_queued"] as? Int == 5)
        }
    }

    @Test func modelsListsAliasesAndInstalledModels() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/v1/models", method: .get)
            #expect(response.status == .ok)
            let list = try object(response)
            #expect(list["object"] as? String == "list")
            let data = try #require(list["data"] as? [[String: Any]])
            let ids = data.compactMap { $0["id"] as? String }
            #expect(ids == ["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "warble", "test-model", "other-model"])
            #expect(data.allSatisfy { $0["object"] as? String == "model" && $0["owned_by"] as? String == "warble" })
        }
    }

    @Test func oneModelAndUnknownModel() async throws {
        try await withServer { client in
            let known = try await client.execute(uri: "/v1/models/tts-1", method: .get)
            #expect(known.status == .ok)
            #expect(try object(known)["id"] as? String == "tts-1")
            let unknown = try await client.execute(uri: "/v1/models/nope", method: .get)
            #expect(unknown.status == .notFound)
            #expect(try ErrorBody(unknown).error.code == "model_not_found")
        }
    }

    /// `warble voices --json` prints the same `VoiceListing`s, with the same field names, less the aliases.
    @Test func voiceListingOutsideAServerHasTheSameFieldsButNoAliases() throws {
        let voice = VoiceDescription(id: "v", displayName: "Vee", language: "en-US", model: "m", sampleRate: 16000)
        let json = try WarbleJSON.string(VoiceListing(voice, isDefault: true))
        #expect(json == #"{"default":true,"id":"v","language":"en-US","model":"m","name":"Vee","sample_rate":16000}"#)
    }

    @Test func voicesCarryModelLanguageAndRate() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/v1/audio/voices", method: .get)
            #expect(response.status == .ok)
            let data = try #require(try object(response)["data"] as? [[String: Any]])
            #expect(data.count == 2)
            #expect(data[0]["id"] as? String == "test-voice")
            #expect(data[0]["model"] as? String == "test-model")
            #expect(data[0]["language"] as? String == "en-US")
            #expect(data[0]["sample_rate"] as? Int == 22050)
            #expect(data[0]["name"] as? String == "Test Voice")
            #expect(data[0]["default"] as? Bool == true)
            #expect(data[1]["sample_rate"] as? Int == 24000)
            #expect(data[1]["default"] as? Bool == false)
        }
    }

    @Test func unknownRouteAndMethodAreOpenAIShaped404() async throws {
        try await withServer { client in
            let route = try await client.execute(uri: "/v1/nothing", method: .get)
            #expect(route.status == .notFound)
            #expect(try ErrorBody(route).error.type == "invalid_request_error")
            let method = try await client.execute(uri: "/v1/audio/speech", method: .get)
            #expect(method.status == .notFound || method.status == .methodNotAllowed)
            _ = try ErrorBody(method)
        }
    }
}
