/// A model `GET /v1/models/available` lists: one that can be pulled, with its size and licence.
public struct PullableModel: Sendable, Encodable, Equatable {
    /// The id it is installed under.
    public var id: String
    /// What to pull it by (`POST /v1/models/pull`'s `model`).
    public var reference: String
    public var family: String
    public var language: String
    public var quality: String?
    /// Bytes to download, when the catalogue knows.
    public var bytes: Int64?
    public var licence: String
    public var gated: Bool
    public var installed: Bool
    /// Whether this version of warble runs the model's family.
    public var runs: Bool

    public init(id: String, reference: String, family: String, language: String, quality: String? = nil, bytes: Int64? = nil,
                licence: String, gated: Bool = false, installed: Bool = false, runs: Bool = true) {
        self.id = id
        self.reference = reference
        self.family = family
        self.language = language
        self.quality = quality
        self.bytes = bytes
        self.licence = licence
        self.gated = gated
        self.installed = installed
        self.runs = runs
    }
}

/// How far a pull is, in bytes: of the file being downloaded and of all the model's files.
public struct ModelPullProgress: Sendable, Encodable, Equatable {
    public var file: String
    public var fileBytes: Int64
    public var fileTotal: Int64
    public var bytes: Int64
    public var total: Int64

    public init(file: String, fileBytes: Int64, fileTotal: Int64, bytes: Int64, total: Int64) {
        self.file = file
        self.fileBytes = fileBytes
        self.fileTotal = fileTotal
        self.bytes = bytes
        self.total = total
    }
}

/// A finished pull.
public struct PulledModel: Sendable, Equatable {
    public var id: String
    public var bytes: Int64
    /// It was installed and intact already: nothing was downloaded.
    public var alreadyInstalled: Bool

    public init(id: String, bytes: Int64, alreadyInstalled: Bool) {
        self.id = id
        self.bytes = bytes
        self.alreadyInstalled = alreadyInstalled
    }
}

/// The installed models as the server changes them (`warble serve`: the Hub client and checks of
/// `warble models pull`, the store of `warble models remove`). Errors thrown as `APIError` are answered as they are.
public protocol ModelLibraryBackend: Sendable {
    /// What can be pulled (the catalogue; Piper's voices when the Hub or its cached list answers).
    func pullableModels() async throws -> [PullableModel]
    /// Pulls `reference` (a `warble models pull` reference), reporting progress; cancelling the calling task stops it.
    func pullModel(_ reference: String, progress: @escaping @Sendable (ModelPullProgress) -> Void) async throws -> PulledModel
    /// Removes installed model `id`; refuses one in use or the default.
    func removeModel(_ id: String) async throws
}
