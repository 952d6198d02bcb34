import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHub

/// `warble models pull REF...`: models from the Hugging Face Hub into $WARBLE_HOME/models.
struct ModelsPullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Download models from the Hugging Face Hub (resumable, verified).",
        discussion: """
            REF is piper:VOICE[@REVISION], a voice of rhasspy/piper-voices (piper:en_US-lessac-medium, \
            piper:de_DE-thorsten-medium), or kokoro-v1.0[:VARIANT][@REVISION], Kokoro v1.0 with its 54 voices \
            from onnx-community/Kokoro-82M-v1.0-ONNX (variants: quantized, the default; fp32, fp16, q8f16, \
            q4, q4f16, uint8, uint8f16), or whisper-SIZE (tiny, base, small, medium, each also .en) from \
            Systran/faster-whisper-SIZE, converted to ONNX on pull by tools/whisper/convert_ct2.py (warble \
            finds the tools in the checkout it was built in, or in WARBLE_SOURCE_ROOT); warble models \
            available lists them. Every file is checked against \
            the Hub's sha256 and the catalogue's size and md5; a broken transfer continues where it stopped, \
            also on the next run (partial files wait in $WARBLE_HOME/cache/downloads); the model appears only \
            when complete. HF_ENDPOINT names a mirror, HF_TOKEN (or HUGGING_FACE_HUB_TOKEN, or \
            $HF_HOME/token) a token for gated repositories, HF_HUB_OFFLINE=1 forbids the network. Pulled \
            models run as published: a Piper voice whole (without the encoder/decoder split of the set-up's \
            default voice), Kokoro without Warble's fused operators.
            """
    )

    @Argument(help: "Models to pull: piper:VOICE, kokoro-v1.0[:VARIANT] or whisper-SIZE, each [@REVISION].")
    var references: [String]

    @Flag(name: .shortAndLong, help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        if references.isEmpty { throw ValidationError("name the model(s) to pull, such as piper:en_US-lessac-medium or kokoro-v1.0") }
    }

    func run() async throws {
        let parsed: [ModelReference]
        do {
            parsed = try references.map(ModelReference.init(parsing:))
        } catch let error as HubError {
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
        let failed = try await HubClient.with(userAgent: "warble/\(WarbleVersion.number)") { client in
            try await pull(parsed, client: client)
        }
        if failed { throw ExitCode.failure }
    }

    /// Pulls each reference in turn; true when any failed (each failure is reported as it happens).
    func pull(_ parsed: [ModelReference], client: HubClient) async throws -> Bool {
        let pull = HubPull(client: client, installer: ModelInstaller(), tools: ConversionTools.locate())
        var failed = false
        for reference in parsed {
            let meter = PullProgress(enabled: !quiet)
            do {
                let outcome = try await pull.pull(reference, waiting: {
                    SpeechInput.note("waiting for another pull of \(HubPull.modelID(of: reference)) to finish")
                }, progress: { meter.update($0) })
                meter.finish()
                switch outcome {
                case .installed(let model):
                    let voices = model.manifest.voices.map(\.id)
                    SpeechInput.note("installed \(model.manifest.id) (\(formatBytes(model.manifest.totalBytes))) from "
                        + model.manifest.source + (voices.isEmpty ? "" : "; voices: " + TextList.shortened(voices)))
                case .alreadyInstalled(let model):
                    SpeechInput.note("\(model.manifest.id) is already installed and intact")
                }
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
        abstract: "List the models warble can pull: Kokoro v1.0's variants, Whisper's sizes and Piper's catalogue (read from the Hub, cached for offline use).")

    @Option(help: "Only this family (piper, kokoro or whisper).")
    var family: String?

    @Option(help: "Only voices for this language (en, en_US, de-DE, ...).")
    var language: String?

    @Flag(help: "Print JSON.")
    var json = false

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
    }

    func run() async throws {
        if let family, !ModelReference.pullable.contains(family.lowercased()) {
            SpeechInput.note("error: no family '\(family)' to pull; families: " + ModelReference.pullable.joined(separator: ", "))
            throw ExitCode.failure
        }
        let store = ModelStore()
        let installed = Set(store.scan().models.map(\.manifest.id))
        var entries: [Entry] = []
        var offlineCatalogue = false
        if family == nil || family?.lowercased() == "kokoro" {
            // Kokoro v1.0's variants (onnx-community/Kokoro-82M-v1.0-ONNX): 54 voices in 9 languages.
            entries += KokoroHubCatalogue.variants.keys.sorted().map { variant in
                let id = KokoroHubCatalogue.modelID(variant: variant)
                return Entry(id: id, reference: variant == KokoroHubCatalogue.defaultVariant ? "kokoro-v1.0" : "kokoro-v1.0:\(variant)",
                             family: "kokoro", language: "multilingual", quality: variant, speakers: 54, bytes: nil,
                             licence: "Apache-2.0", gated: false, installed: installed.contains(id))
            }.filter { entry in language.map { ["en", "es", "fr", "hi", "it", "ja", "pt", "zh"].contains(String($0.prefix(2)).lowercased()) } ?? true }
        }
        if family == nil || family?.lowercased() == "whisper" {
            // Whisper from Systran/faster-whisper-SIZE, converted to ONNX on pull.
            entries += WhisperHubCatalogue.sizes.map { size in
                Entry(id: "whisper-\(size)", reference: "whisper-\(size)", family: "whisper",
                      language: size.hasSuffix(".en") ? "en" : "multilingual", quality: nil, speakers: 0, bytes: nil,
                      licence: "MIT", gated: false, installed: installed.contains("whisper-\(size)"))
            }.filter { entry in language.map { entry.language == "multilingual" || String($0.prefix(2)).lowercased() == "en" } ?? true }
        }
        if family == nil || family?.lowercased() == "piper" {
            let catalogue: PiperVoiceCatalogue
            do {
                catalogue = try await HubClient.with(userAgent: "warble/\(WarbleVersion.number)") { client in
                    try await PiperVoiceCatalogue.load(client: client, store: store, allowCached: true)
                }
            } catch let error as HubError {
                SpeechInput.note("error: \(error.message)")
                throw ExitCode.failure
            }
            offlineCatalogue = catalogue.commit == nil
            entries += piperEntries(catalogue, installed: installed)
        }
        if json {
            print(try WarbleJSON.string(entries, pretty: true))
            return
        }
        if entries.isEmpty {
            print("No models match\(language.map { " language '\($0)'" } ?? "").")
            return
        }
        printTable(header: ["PULL", "LANGUAGE", "QUALITY", "SPEAKERS", "SIZE", "INSTALLED"], rows: entries.map {
            [$0.reference, $0.language, $0.quality ?? "", "\($0.speakers)", $0.bytes.map { formatBytes(Int($0)) } ?? "",
             $0.installed ? "yes" : ""]
        })
        if offlineCatalogue {
            SpeechInput.note("offline: this is the catalogue cached at the last pull or listing")
        }
    }

    func piperEntries(_ catalogue: PiperVoiceCatalogue, installed: Set<String>) -> [Entry] {
        let wanted = language.map { $0.replacingOccurrences(of: "-", with: "_").lowercased() }
        return catalogue.voices.values.filter { voice in
            guard let wanted else { return true }
            let code = voice.language.code.lowercased()
            return code == wanted || code.hasPrefix(wanted + "_") || voice.language.family?.lowercased() == wanted
        }.sorted { $0.key < $1.key }.map { voice in
            Entry(id: "piper-\(voice.key)", reference: "piper:\(voice.key)", family: "piper", language: voice.languageTag,
                  quality: voice.quality, speakers: voice.numSpeakers ?? 1, bytes: voice.totalBytes,
                  licence: "MIT (training data: see the voice's MODEL_CARD)", gated: false,
                  installed: installed.contains("piper-\(voice.key)"))
        }
    }
}
