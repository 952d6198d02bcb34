import Foundation
import WarbleEngine

/// The plan of a catalogue model whose files are taken as published (CosyVoice 3, Chatterbox Turbo,
/// NeuCodec, NeuTTS): the catalogue's file lists resolved against the repository's tree. Each file
/// keeps its repository path; the manifest's `config.files` maps each name the catalogue gives to
/// that path, so that the family's pipeline finds its files whichever layout the repository has.
enum RepositoryPlan {
    /// The tree entry a catalogue name stands for: the path itself, else (for a name without a
    /// folder) the file of that name nearest the root.
    static func resolve(_ name: String, in files: [String: HubClient.TreeEntry]) -> HubClient.TreeEntry? {
        if let exact = files[name] { return exact }
        guard !name.contains("/") else { return nil }
        return files.values.filter { $0.path.hasSuffix("/" + name) }
            .min { ($0.path.count, $0.path) < ($1.path.count, $1.path) }
    }

    /// Where the catalogue's `convertSafetensors` tool writes the backbone (a NeuTTS backbone published as
    /// safetensors becomes the ONNX graph the family runs).
    static let convertedBackbone = ["onnx/model.onnx", "onnx/model.onnx_data"]

    /// The catalogue's variants of `entry` whose every file the repository's tree has, sorted.
    static func publishedVariants(_ entry: ModelCatalogue.Entry, in byPath: [String: HubClient.TreeEntry]) -> [String] {
        entry.variants.keys.sorted().filter { variant in
            guard let wanted = try? entry.files(variant: variant) else { return false }
            return wanted.files.allSatisfy { resolve($0, in: byPath) != nil }
                && wanted.oneOf.allSatisfy { group in group.contains { resolve($0, in: byPath) != nil } }
        }
    }

    /// The tree entries of `wanted` (each with the catalogue name it stands for); a clear error naming
    /// what the repository lacks (and, for an entry with variants, the variants it does publish).
    static func choose(_ wanted: ModelCatalogue.Files, tree: [HubClient.TreeEntry], repo: String,
                       layout: String, variantsOf entry: ModelCatalogue.Entry? = nil) throws -> [(name: String, entry: HubClient.TreeEntry)] {
        let byPath = Dictionary(tree.filter { $0.type == "file" }.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var chosen: [(name: String, entry: HubClient.TreeEntry)] = []
        var missing: [String] = []
        for name in wanted.files {
            if let found = resolve(name, in: byPath) { chosen.append((name, found)) } else { missing.append(name) }
        }
        for group in wanted.oneOf {
            if let (name, found) = group.lazy.compactMap({ name in resolve(name, in: byPath).map { (name, $0) } }).first {
                chosen.append((name, found))
            } else {
                missing.append(group.joined(separator: " or "))
            }
        }
        guard missing.isEmpty else {
            var hint = ""
            if let entry, !entry.variants.isEmpty {
                let published = publishedVariants(entry, in: byPath)
                hint = published.isEmpty ? "; it publishes none of \(entry.id)'s variants"
                    : "; the variants it publishes: " + published.map { "\(entry.id):\($0)" }.joined(separator: ", ")
            }
            throw HubError(.notFound, "\(repo) is not laid out as \(layout): it lacks " + missing.joined(separator: ", ") + hint)
        }
        for name in wanted.optional {
            if let found = resolve(name, in: byPath) { chosen.append((name, found)) }
        }
        var seen = Set<String>()
        return chosen.filter { seen.insert($0.entry.path).inserted }
    }

    static func plan(_ entry: ModelCatalogue.Entry, variant: String?, repo: String, tree: [HubClient.TreeEntry],
                     id: String, tools: ConversionTools? = nil) throws -> ModelInstaller.Plan {
        let chosen = try choose(try entry.files(variant: variant), tree: tree, repo: repo,
                                layout: entry.id + (variant.map { ":\($0)" } ?? ""), variantsOf: entry)
        let paths = Set(chosen.map(\.entry.path))
        let names = Dictionary(chosen.map { ($0.name, $0.entry.path) }, uniquingKeysWith: { a, _ in a })
        let variantName = variant ?? entry.defaultVariant
        let widened = chosen.map(\.entry.path).filter { $0.hasSuffix(".onnx") && $0.contains("fp16") }
        // The catalogue's `widenFP16` tool widens fp16 graphs to f32 on pull (CosyVoice 3's: on a CPU they run slower than
        // f32 ones, scripts/bench-cosyvoice3.sh, and widened they run as fast at half the download).
        let widener = entry.widenFP16 ?? ""
        let widens = !widener.isEmpty && variantName == "fp16" && !widened.isEmpty
        let widen: @Sendable (URL, URL) async throws -> Void = { downloaded, output in
            try ConversionSteps.carryOver(downloaded, into: output)
            var failure: (any Error)?
            if let tools {
                do {
                    try await tools.run(widener, [output.path] + widened)
                    return
                } catch {
                    failure = error
                }
            }
            try ConversionSteps.leave(ConversionSteps.note("the fp16 graphs run as published (slower on a CPU than widened to f32)",
                                                           script: widener, error: failure), in: output)
        }
        // A NeuTTS backbone published as safetensors only (the authors' repositories) is converted to
        // ONNX on pull; a repository that has the ONNX export is taken as it is.
        let backboneConverter = entry.convertSafetensors ?? ""
        let convertsBackbone = !backboneConverter.isEmpty && paths.contains("model.safetensors") && !paths.contains("onnx/model.onnx")
        if convertsBackbone {
            guard let tools else {
                throw ModelInstallError("\(id) is published as safetensors and converted to ONNX on pull by \(backboneConverter), which "
                    + "this warble cannot find: run it from a Warble checkout (after scripts/python-env.sh) or set WARBLE_SOURCE_ROOT to one")
            }
            try tools.check()
        }
        let convertBackbone: @Sendable (URL, URL) async throws -> Void = { downloaded, output in
            try ConversionSteps.carryOver(downloaded, into: output)
            try await tools?.run(backboneConverter, [output.path, output.appendingPathComponent(convertedBackbone[0]).path])
            // The graph holds the weights (widened to f32): the safetensors would only double the disk used.
            try FileManager.default.removeItem(at: output.appendingPathComponent("model.safetensors"))
        }
        let convert = widens ? widen : convertsBackbone ? convertBackbone : nil
        return ModelInstaller.Plan(id: id, files: chosen.map { ($0.entry.remoteFile, $0.entry.path) }, convert: convert) { directory, entries in
            let notes = widens ? ConversionSteps.takeNotes(in: directory) : []
            let isWidened = widens && notes.isEmpty
            var config: [String: JSONValue] = [
                "files": .object(names.mapValues { .string($0) }),
                "variant": variantName.map { .string($0) } ?? .null,
                "needs": .array(entry.needs.map { .string($0) }),
            ]
            var files = entries
            if convertsBackbone {
                config["files"] = .object(names.filter { $0.value != "model.safetensors" }.mapValues { .string($0) }
                    .merging(["backbone": .string(convertedBackbone[0])]) { a, _ in a })
                files = try entries.filter { $0.path != "model.safetensors" }
                    + convertedBackbone.map { try ModelManifest.File(hashing: directory.appendingPathComponent($0), as: $0) }
            }
            if isWidened {
                config["widened"] = .array(widened.map { .string($0) })
                // The widened graphs as installed (the downloads stay recorded in `derivedFrom`).
                files = try entries.map { widened.contains($0.path)
                    ? try ModelManifest.File(hashing: directory.appendingPathComponent($0.path), as: $0.path) : $0 }
            }
            var manifest = ModelManifest(
                id: id, family: entry.family, displayName: entry.id + (variantName.map { " (\($0)\(isWidened ? ", widened to f32" : ""))" } ?? ""),
                licence: entry.licence, source: "", sampleRate: entry.sampleRate, languages: entry.languages,
                voices: [], files: files, config: .object(config))
            manifest.converter = isWidened ? widener : convertsBackbone ? backboneConverter : nil
            manifest.notes = notes.isEmpty ? nil : notes
            return manifest
        }
    }
}
