import Foundation
import WarbleEngine
import WarbleModels

/// Pulls a model from the Hub into the store: its catalogue entry, its plan, the install.
public struct HubPull: Sendable {
    public let client: HubClient
    public let installer: ModelInstaller
    /// The project's Python tools, for the conversions on pull (Whisper's, Piper's split, Kokoro's
    /// fused operators).
    public let tools: ConversionTools?
    public let catalogue: ModelCatalogue

    public init(client: HubClient, installer: ModelInstaller, tools: ConversionTools? = nil) throws {
        try self.init(client: client, installer: installer, tools: tools, catalogue: ModelCatalogue.load())
    }

    public init(client: HubClient, installer: ModelInstaller, tools: ConversionTools?, catalogue: ModelCatalogue) {
        self.client = client
        self.installer = installer
        self.tools = tools
        self.catalogue = catalogue
    }

    /// The model id `reference` installs as (without asking the Hub; an `hf:` Piper voice's id comes
    /// from its repository name until its file is seen).
    public func modelID(of reference: ModelReference) -> String {
        Self.modelID(of: reference, catalogue: catalogue)
    }

    public static func modelID(of reference: ModelReference, catalogue: ModelCatalogue) -> String {
        if reference.pypi { return reference.name }
        if let repo = reference.repo { return Self.hubID(family: reference.family, repo: repo) }
        switch ModelFamilies.builtIn.pullForm(of: reference.family) {
        case .listed(_, let installedPrefix): return installedPrefix + reference.name
        case .sized: return catalogue.entry(family: reference.family)?.id.replacingOccurrences(of: "{size}", with: reference.name) ?? reference.name
        case nil:
            if let (entry, _) = catalogue.templated(reference.name) {
                guard let variant = reference.variant, variant != entry.defaultVariant else { return reference.name }
                return "\(reference.name)-\(variant)"
            }
            return catalogue.entry(reference.name)?.modelID(variant: reference.variant) ?? reference.name
        }
    }

    /// `FAMILY-OWNER--NAME` for a model pulled by repository.
    static func hubID(family: String, repo: String) -> String {
        "\(family)-" + repo.replacingOccurrences(of: "/", with: "--")
    }

    public func pull(_ reference: ModelReference, waiting: @escaping @Sendable () -> Void = {},
                     progress: @escaping @Sendable (ModelInstaller.Progress) -> Void = { _ in }) async throws -> ModelInstaller.Outcome {
        let id = modelID(of: reference)
        if client.environment.offline {
            if let installed = try? installer.store.model(id), installed.verify(checksums: false).isEmpty {
                return .alreadyInstalled(installed)
            }
            try client.checkOnline("model \(id) (\(reference))")
        }
        func install(_ plan: ModelInstaller.Plan, _ source: any ModelSource) async throws -> ModelInstaller.Outcome {
            try await installer.install(plan, from: source, waiting: waiting, progress: progress)
        }
        if reference.pypi {
            guard let entry = catalogue.entry(reference.name, pypi: true) else {
                throw HubError(.notFound, "the catalogue has no \(reference)")
            }
            let (plan, source) = try await PyPIPlan.make(entry, store: installer.store, tools: tools)
            return try await install(plan, source)
        }
        let form = ModelFamilies.builtIn.pullForm(of: reference.family)
        if case .listed = form, reference.repo == nil {
            let catalogue = try await PiperVoiceCatalogue.load(client: client, store: installer.store, revision: reference.revision)
            let voice = try catalogue.voice(reference.name)
            guard let commit = catalogue.commit else {
                throw HubError(.unexpected, "\(PiperVoiceCatalogue.repo) gave no commit (X-Repo-Commit) for its catalogue")
            }
            let source = HubModelSource(client: client, repo: PiperVoiceCatalogue.repo, commit: commit)
            return try await install(try await PiperVoiceCatalogue.plan(voice, source: source, tools: tools), source)
        }
        let templated = reference.repo == nil ? catalogue.templated(reference.name) : nil
        guard let entry = form != nil
            ? catalogue.entry(family: reference.family) : templated?.entry ?? catalogue.entry(reference.name) else {
            throw HubError(.notFound, "the catalogue has no \(reference)")
        }
        let variantRepo = try entry.files(variant: reference.variant).repo
        let repo = reference.repo ?? variantRepo ?? entry.repo(size: templated?.size ?? reference.name)
        let commit = try await client.commit(repo: repo, revision: reference.revision)
        let source = HubModelSource(client: client, repo: repo, commit: commit)
        switch form {
        case .listed(let prefix, _):
            return try await install(try await HubRepositoryVoice.plan(repo: repo, family: reference.family, listedPrefix: prefix,
                                                                       source: source, tools: tools), source)
        case .sized:
            return try await install(try await WhisperHubCatalogue.plan(entry, id: id, source: source, tools: tools), source)
        case nil where entry.layout == "voice-tables":
            let files = try await client.tree(repo: repo, revision: commit)
            return try await install(try KokoroHubCatalogue.plan(entry, variant: reference.variant, repo: repo, files: files,
                                                                 tools: tools, id: id), source)
        case nil:
            let files = try await client.tree(repo: repo, revision: commit)
            if entry.convert != nil {
                return try await install(try ConvertedRepositoryPlan.plan(entry, variant: reference.variant, repo: repo, tree: files, id: id,
                                                                          origin: source.origin, tools: tools), source)
            }
            return try await install(try RepositoryPlan.plan(entry, variant: reference.variant, repo: repo, tree: files, id: id,
                                                             tools: tools), source)
        }
    }
}
