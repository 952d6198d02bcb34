import WarbleSpeech
import Foundation
import ONNXRuntime
import Testing
import WarbleEngine
import WarbleModels
import WarblePhonemes

/// The real voices the set-up installs; a test that needs them fails when they are missing (its traits skip it
/// first, unless WARBLE_REQUIRE_FIXTURES=1).
enum InstalledVoices {
    static let store = ModelStore()

    static func model(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> InstalledModel {
        do {
            return try store.model(id)
        } catch {
            Issue.record("model \(id) is not installed in \(store.home.path): run scripts/setup.sh (or scripts/test.sh)",
                         sourceLocation: sourceLocation)
            throw error
        }
    }

    /// Piper with noise scales 0: deterministic output.
    static func piper(noise: Bool = false) throws -> PiperVoice {
        let model = try model("piper-en_US-joe-medium")
        return try PiperVoice(directory: model.directory, manifest: model.manifest, phonemizer: EspeakPhonemizer(),
                              sessionOptions: SessionOptions(intraOpThreads: 2),
                              noiseScale: noise ? nil : 0, noiseW: noise ? nil : 0)
    }

    static func kokoro() throws -> KokoroModel {
        let model = try model("kokoro-v1.0-int8")
        return try KokoroModel(directory: model.directory, manifest: model.manifest, phonemizer: EspeakPhonemizer(),
                               sessionOptions: SessionOptions(intraOpThreads: 2))
    }

    /// An engine with a `WARBLE_HOME` of its own whose models are the installed ones (`models` is a
    /// link) and whose voice library is empty; `models` must be installed.
    static func isolatedEngine(_ name: String, models: [String], threads: Int) throws -> Engine {
        for id in models { _ = try model(id) }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: home.appendingPathComponent("models"), withDestinationURL: store.modelsDirectory)
        return Engine(store: ModelStore(home: home), phonemizer: EspeakPhonemizer(),
                      configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: threads))
    }

    /// An engine whose store holds links to the installed VAD and speaker embedder and a seed family's
    /// synthetic graphs (Tests/Fixtures/generated/AREA/repo, made by tools/AREA/make_fixtures.py)
    /// installed as `id` (files linked, a manifest with `config.variant` written).
    static func engine(withFixture area: String, as id: String, family: String, languages: [String], variant: String,
                       marker: String, config: [String: JSONValue] = [:]) throws -> Engine {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/generated/\(area)/repo")
        guard FileManager.default.fileExists(atPath: repo.appendingPathComponent(marker).path) else {
            Issue.record("no \(area) fixtures: run .venv/bin/python tools/\(area)/make_fixtures.py Tests/Fixtures/generated/\(area)")
            throw CancellationError()
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-\(area)-\(UUID().uuidString)")
        let models = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for model in ["silero-vad", "speaker-dvector"] {
            try FileManager.default.createSymbolicLink(at: models.appendingPathComponent(model), withDestinationURL: try self.model(model).directory)
        }
        let directory = models.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: repo.path) {
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(name), withDestinationURL: repo.appendingPathComponent(name))
        }
        let manifest = ModelManifest(id: id, family: family, licence: "synthetic test graphs (tools/\(area))", source: "fixture",
                                     sampleRate: 24_000, languages: languages, voices: [], files: [],
                                     config: .object(config.merging(["variant": .string(variant)]) { a, _ in a }))
        try JSONEncoder().encode(manifest).write(to: directory.appendingPathComponent("manifest.json"))
        return Engine(store: ModelStore(home: home), phonemizer: EspeakPhonemizer(),
                      configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 1))
    }

    /// Shared instances (loading Kokoro takes about a second).
    static let sharedPiper = Result { try piper() }
    static let sharedKokoro = Result { try kokoro() }
}

/// Collects a stream into chunks.
func collect(_ stream: AsyncThrowingStream<AudioChunk, any Error>) async throws -> [AudioChunk] {
    var chunks: [AudioChunk] = []
    for try await chunk in stream { chunks.append(chunk) }
    return chunks
}

func rms(_ samples: some Collection<Float>) -> Float {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(Float(0)) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
}
