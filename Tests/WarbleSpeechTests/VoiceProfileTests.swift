import Foundation
import Testing
import WarbleSpeech

@Suite struct VoiceProfileTests {
    @Test(arguments: ["anna", "kokoro-my_voice", "a.b:c", String(repeating: "x", count: 64)])
    func acceptsUsableIDs(id: String) {
        #expect(VoiceProfile.isValidID(id))
    }

    @Test(arguments: ["", ".hidden", "a/b", "../up", "with space", "naïve", String(repeating: "x", count: 65)])
    func refusesIDsThatAreNotNames(id: String) {
        #expect(!VoiceProfile.isValidID(id))
    }

    @Test func aTensorMustHoldWhatItsShapeSays() throws {
        #expect(StoredTensor(shape: [2, 3], values: Array(repeating: 0, count: 6)) != nil)
        #expect(StoredTensor(shape: [2, 3], values: Array(repeating: 0, count: 5)) == nil)
        #expect(StoredTensor(shape: [-1, 3], values: []) == nil)
        let json = Data(#"{"shape": [2, 2], "values": [1, 2, 3]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredTensor.self, from: json) }
    }

    @Test func conditioningRoundTripsThroughJSON() throws {
        let tensor = try #require(StoredTensor(shape: [1, 3], values: [0.25, -1.5, 3e-8]))
        let cases: [VoiceConditioning] = [
            .styleTable(tensor),
            .speakerPrompt(embedding: tensor, promptTokens: [1, 2, 6560], promptMel: tensor, transcript: "hello"),
            .encoderOutputs(["audio_features": tensor, "speaker_embeddings": tensor]),
            .referenceCodes(codes: [0, 65535], transcript: "hi"),
        ]
        for conditioning in cases {
            let data = try JSONEncoder().encode(conditioning)
            #expect(try JSONDecoder().decode(VoiceConditioning.self, from: data) == conditioning, "\(conditioning.kind)")
        }
    }
}
