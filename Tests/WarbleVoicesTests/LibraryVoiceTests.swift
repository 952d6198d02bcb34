import Foundation
import Testing
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// Voices from the voice library, through the engine, with the installed Kokoro: a profile holding a
/// stock voice's style table speaks exactly as that voice, is listed with the stock voices (also when
/// added after the engine started), and a model that cannot take a profile says so.
@Suite(.needs(model: "kokoro-v1.0-int8"), .needsRuntime, .serialized) struct LibraryVoiceTests {
    /// A `WARBLE_HOME` of its own whose models are the installed ones and whose voice library is empty.
    func engine() throws -> Engine {
        try InstalledVoices.isolatedEngine("library", models: ["kokoro-v1.0-int8"], threads: 2)
    }

    /// jf_alpha's style table, read from the installed model, as a library voice.
    func alphaProfile(id: String, model: String = "kokoro-v1.0-int8") throws -> VoiceProfile {
        let installed = try InstalledVoices.model("kokoro-v1.0-int8")
        let data = try Data(contentsOf: installed.directory.appendingPathComponent("voices/jf_alpha.f32"))
        let values = data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        let table = try #require(StoredTensor(shape: [510, 256], values: values))
        return VoiceProfile(id: id, displayName: "Alpha again", language: "en-US", model: model, family: "kokoro",
                            conditioning: .styleTable(table))
    }

    func samples(_ engine: Engine, voice: String) async throws -> [Float] {
        try await collect(engine.synthesize(SynthesisRequest(text: "The library voice speaks.", voice: voice)))
            .flatMap(\.samples)
    }

    @Test func aLibraryVoiceAddedWhileRunningIsListedAndSpeaksLikeItsSource() async throws {
        let engine = try engine()
        let before = await engine.voices.map(\.id)
        #expect(!before.contains("alpha-again"))
        try engine.library.add(try alphaProfile(id: "alpha-again"))
        let voices = await engine.voices
        let listed = try #require(voices.first { $0.id == "alpha-again" })
        #expect(listed.model == "kokoro-v1.0-int8" && listed.sampleRate == 24000 && listed.displayName == "Alpha again")
        #expect(voices.map(\.id).starts(with: before))
        let stock = try await samples(engine, voice: "kokoro-jf_alpha")
        let cloned = try await samples(engine, voice: "alpha-again")
        #expect(stock.count > 24000 / 2)
        #expect(cloned == stock)
        #expect(try await engine.voice("Alpha again").id == "alpha-again")
    }

    @Test func aProfileForAModelThatIsNotInstalledIsNotListed() async throws {
        let engine = try engine()
        try engine.library.add(try alphaProfile(id: "orphan", model: "kokoro-v9"))
        #expect(!(await engine.voices.map(\.id).contains("orphan")))
        await #expect { try await engine.voice("orphan") } throws: { "\($0)".contains("unknown voice 'orphan'") }
    }

    @Test func aProfileOfTheWrongShapeIsAClearError() async throws {
        let engine = try engine()
        let small = try #require(StoredTensor(shape: [2, 2], values: [0, 0, 0, 0]))
        try engine.library.add(VoiceProfile(id: "tiny", language: "en-US", model: "kokoro-v1.0-int8", family: "kokoro",
                                            conditioning: .styleTable(small)))
        await #expect { try await samples(engine, voice: "tiny") } throws: { error in
            "\(error)".contains("shape [2, 2]") && "\(error)".contains("[510, 256]")
        }
    }

    @Test(.needs(model: "piper-en_US-joe-medium")) func piperRefusesALibraryVoice() async throws {
        let engine = try engine()
        var profile = try alphaProfile(id: "joe-clone")
        profile.model = "piper-en_US-joe-medium"
        profile.family = "piper"
        try engine.library.add(profile)
        await #expect { try await samples(engine, voice: "joe-clone") } throws: { error in
            "\(error)".contains("Piper voices cannot take one")
        }
    }
}
