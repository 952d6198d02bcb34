/// What the engine is doing, published as it changes (newest value only: a slow observer skips
/// intermediate states rather than falling behind).
public enum EngineStatus: Sendable, Equatable {
    case idle
    case loading(model: String)
    case ready(model: String)
    case synthesizing(model: String)
    case recognizing(model: String)
    case failed(model: String, message: String)
}
