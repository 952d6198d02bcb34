import WarbleSpeech
import Foundation
import ONNXRuntime
import Testing
import WarbleEngine
@testable import WarbleModels
import WarblePhonemes
import WarbleTestSupport

@Suite(.needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized) struct EngineTests {
    /// Counts loads, to prove that concurrent first callers share one.
    final class LoadCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.lock(); value += 1; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    }

    /// Piper, counting its loads.
    struct CountingPiperFamily: ModelFamily {
        let counter: LoadCounter
        let name = "piper"
        let abilities: Set<Ability> = [.synthesis]

        func load(_ model: ModelFiles, configuration: PiperModelConfiguration, context: FamilyContext) throws -> LoadedModel {
            counter.increment()
            return LoadedModel(renderer: try PiperVoice(directory: model.directory, manifest: model.manifest,
                                                        phonemizer: try context.requirePhonemizer(for: name),
                                                        sessionOptions: context.sessionOptions, noiseScale: 0, noiseW: 0))
        }
    }

    private func engine(counter: LoadCounter? = nil, idle: Duration? = nil) -> Engine {
        var families = ModelFamilies.builtIn
        if let counter { families.register(CountingPiperFamily(counter: counter)) }
        return Engine(phonemizer: EspeakPhonemizer(), families: families,
                      configuration: .init(idleUnloadAfter: idle, threads: 2))
    }

    @Test(.needs(model: "kokoro-v1.0-int8")) func listsInstalledVoicesWithJoeAsDefault() async throws {
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        let engine = engine()
        #expect(await engine.defaultVoice?.id == "en_US-joe-medium")
        let ids = await engine.voices.map(\.id)
        #expect(ids.contains("kokoro-jm_kumo"))
        let error = await #expect(throws: ModelError.self) { _ = try await engine.voice("nobody") }
        #expect(error?.kind == .unknownVoice)
        #expect(error?.message.contains("en_US-joe-medium") == true)
    }

    @Test func concurrentFirstCallersShareOneLoad() async throws {
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        let counter = LoadCounter()
        let engine = engine(counter: counter)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<4 {
                group.addTask {
                    try await collect(engine.synthesize(SynthesisRequest(text: "Request number \(i)."))).count
                }
            }
            for try await count in group { #expect(count >= 1) }
        }
        #expect(counter.count == 1)
        #expect(await engine.loadedModels == ["piper-en_US-joe-medium"])
    }

    @Test func statusStreamReportsLoadingAndReady() async throws {
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        let engine = engine()
        let updates = await engine.statusUpdates()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .idle)
        _ = try await collect(engine.synthesize(SynthesisRequest(text: "Status.")))
        // Newest-1 buffering: after the request the newest state is ready.
        #expect(await iterator.next() == .ready(model: "piper-en_US-joe-medium"))
        #expect(await engine.currentStatus == .ready(model: "piper-en_US-joe-medium"))
    }

    @Test func repeatedTextComesFromTheCache() async throws {
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        let engine = engine(counter: LoadCounter())
        let request = SynthesisRequest(text: "Cached sentence.")
        let first = try await collect(engine.synthesize(request)).flatMap(\.samples)
        let misses = engine.cache.misses
        let second = try await collect(engine.synthesize(request)).flatMap(\.samples)
        #expect(engine.cache.misses == misses)
        #expect(engine.cache.hits >= 1)
        #expect(first == second)
        #expect(engine.cache.byteCount <= engine.cache.capacityBytes)
    }

    @Test func idleModelsAreUnloaded() async throws {
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        let engine = engine(idle: .seconds(30))
        _ = try await collect(engine.synthesize(SynthesisRequest(text: "Hello.")))
        #expect(await engine.unloadIdleModels() == [])
        #expect(await engine.unloadIdleModels(now: .now + .seconds(31)) == ["piper-en_US-joe-medium"])
        #expect(await engine.loadedModels.isEmpty)
        #expect(await engine.currentStatus == .idle)
        // It loads again on demand.
        _ = try await collect(engine.synthesize(SynthesisRequest(text: "Again.")))
        #expect(await engine.loadedModels == ["piper-en_US-joe-medium"])
    }

    @Test func cancellingTheConsumerStopsTheWork() async throws {
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        let engine = engine()
        let text = Array(repeating: "This sentence is one of very many in a long text.", count: 200).joined(separator: " ")
        let task = Task { () -> Int in
            var count = 0
            for try await _ in engine.synthesize(SynthesisRequest(text: text)) {
                count += 1
                if count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        let result = await task.result
        let count = (try? result.get()) ?? 2
        #expect(count < 6, "the stream stopped soon after cancellation (\(count) chunks)")
        // The engine hears that the request is over even though the stream never reached its end:
        // its status stream (current status first, then each change) comes to ready.
        for await status in await engine.statusUpdates() where status == .ready(model: "piper-en_US-joe-medium") { break }
        #expect(await engine.currentStatus == .ready(model: "piper-en_US-joe-medium"))
    }
}
