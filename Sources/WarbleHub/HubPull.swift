import Foundation
import WarbleEngine

/// Pulls a model from the Hub into the store: the family's catalogue, its plan, the install.
public struct HubPull: Sendable {
    public let client: HubClient
    public let installer: ModelInstaller
    /// The project's Python tools, for the conversions on pull (Whisper's, Piper's split, Kokoro's
    /// fused operators).
    public let tools: ConversionTools?

    public init(client: HubClient, installer: ModelInstaller, tools: ConversionTools? = nil) {
        self.client = client
        self.installer = installer
        self.tools = tools
    }

    /// The model id `reference` installs as (without asking the Hub).
    public static func modelID(of reference: ModelReference) -> String {
        switch reference.family {
        case "kokoro": KokoroHubCatalogue.modelID(variant: reference.variant)
        default: "\(reference.family)-\(reference.name)"
        }
    }

    public func pull(_ reference: ModelReference, waiting: @escaping @Sendable () -> Void = {},
                     progress: @escaping @Sendable (ModelInstaller.Progress) -> Void = { _ in }) async throws -> ModelInstaller.Outcome {
        if client.environment.offline {
            if let installed = try? installer.store.model(Self.modelID(of: reference)), installed.verify(checksums: false).isEmpty {
                return .alreadyInstalled(installed)
            }
            try client.checkOnline("model \(Self.modelID(of: reference)) (\(reference))")
        }
        switch reference.family {
        case "piper":
            let catalogue = try await PiperVoiceCatalogue.load(client: client, store: installer.store, revision: reference.revision)
            let voice = try catalogue.voice(reference.name)
            guard let commit = catalogue.commit else {
                throw HubError(.unexpected, "\(PiperVoiceCatalogue.repo) gave no commit (X-Repo-Commit) for its catalogue")
            }
            let source = HubModelSource(client: client, repo: PiperVoiceCatalogue.repo, commit: commit)
            let plan = try await PiperVoiceCatalogue.plan(voice, source: source, tools: tools)
            return try await installer.install(plan, from: source, waiting: waiting, progress: progress)
        case "kokoro":
            let commit = try await client.metadata(repo: KokoroHubCatalogue.repo, revision: reference.revision,
                                                   path: "config.json").commit
            guard let commit else {
                throw HubError(.unexpected, "\(KokoroHubCatalogue.repo) gave no commit (X-Repo-Commit)")
            }
            let source = HubModelSource(client: client, repo: KokoroHubCatalogue.repo, commit: commit)
            let files = try await client.tree(repo: KokoroHubCatalogue.repo, revision: commit)
            let plan = try KokoroHubCatalogue.plan(files: files, variant: reference.variant, tools: tools)
            return try await installer.install(plan, from: source, waiting: waiting, progress: progress)
        case "whisper":
            let repo = WhisperHubCatalogue.repo(size: reference.name)
            let commit = try await client.metadata(repo: repo, revision: reference.revision, path: "config.json").commit
            guard let commit else { throw HubError(.unexpected, "\(repo) gave no commit (X-Repo-Commit)") }
            let source = HubModelSource(client: client, repo: repo, commit: commit)
            let plan = try await WhisperHubCatalogue.plan(size: reference.name, source: source, tools: tools)
            return try await installer.install(plan, from: source, waiting: waiting, progress: progress)
        default:
            throw HubError(.notFound, "cannot pull '\(reference.family)' models")
        }
    }
}
