import Foundation
import WarbleEngine
import WarbleServer

/// The engine's loaded models for `/metrics`, with the load time of the ones loaded through `loadDefault`
/// (the default voice's, at start-up); models loaded later by requests are reported without a time.
final class ServerModelStatus: ModelStatusBackend, @unchecked Sendable {
    let engine: Engine
    private let lock = NSLock()
    private var loadSeconds: [String: Double] = [:]

    init(engine: Engine) {
        self.engine = engine
    }

    /// Loads the default voice's model and keeps how long it took.
    func loadDefault() async throws {
        guard let voice = await engine.defaultVoice else { return }
        let started = ContinuousClock.now
        _ = try await engine.renderer(for: voice.model)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        lock.withLock { loadSeconds[voice.model] = seconds }
    }

    func loadedModels() async -> [LoadedModel] {
        let timed = lock.withLock { loadSeconds }
        return await engine.loadedModels.map { LoadedModel(id: $0, loadSeconds: timed[$0]) }
    }
}
