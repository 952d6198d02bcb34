import Foundation
import WarbleEngine

/// The plan of a catalogue model converted on pull by the project tool its entry names (`convert`):
/// the catalogue's files are fetched from the repository's tree, then the tool runs with the tools'
/// Python as `TOOL DOWNLOADED OUTPUT --id ID --source ORIGIN --repo OWNER/NAME [--variant V]` and
/// writes every file and the manifest itself; the plan adds the licence and records the tool.
enum ConvertedRepositoryPlan {
    static func plan(_ entry: ModelCatalogue.Entry, variant: String?, repo: String, tree: [HubClient.TreeEntry], id: String,
                     origin: String, tools: ConversionTools?) throws -> ModelInstaller.Plan {
        guard let script = entry.convert else { throw HubError(.unexpected, "\(entry.id) names no conversion tool") }
        // Before anything is downloaded: the conversion must be able to run.
        guard let tools else {
            throw ModelInstallError("\(id) is converted to ONNX on pull by \(script), which this warble cannot find: run it "
                + "from a Warble checkout (after scripts/python-env.sh) or set WARBLE_SOURCE_ROOT to one")
        }
        try tools.check()
        let variantName = variant ?? entry.defaultVariant
        let chosen = try RepositoryPlan.choose(try entry.files(variant: variant), tree: tree, repo: repo,
                                               layout: entry.id + (variant.map { ":\($0)" } ?? ""))
        let arguments = ["--id", id, "--source", origin, "--repo", repo] + (variantName.map { ["--variant", $0] } ?? [])
        let licence = entry.licence
        return ModelInstaller.Plan(id: id, files: chosen.map { ($0.entry.remoteFile, $0.entry.path) }, convert: { downloaded, output in
            try await tools.run(script, [downloaded.path, output.path] + arguments)
        }, manifest: { directory, _ in
            let url = directory.appendingPathComponent("manifest.json")
            do {
                var manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
                manifest.licence = licence
                manifest.converter = script
                return manifest
            } catch {
                throw ModelInstallError("\(script) wrote no readable \(url.path): \(error)")
            }
        })
    }
}
