/// What `/metrics` reports about models: the ones loaded now and how long each took to load (nil: not timed).
/// `warble serve` answers from the engine; a server handed none reports no models.
public protocol ModelStatusBackend: Sendable {
    func loadedModels() async -> [LoadedModel]
}

public struct LoadedModel: Sendable, Equatable {
    public var id: String
    public var loadSeconds: Double?

    public init(id: String, loadSeconds: Double? = nil) {
        self.id = id
        self.loadSeconds = loadSeconds
    }
}
