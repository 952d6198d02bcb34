import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHub

/// `warble voice add NAME --from CLIP`: clones a voice and keeps it in the library.
struct VoiceAddCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "add",
        abstract: "Clone a voice from a clip of someone speaking and keep it in the library.",
        discussion: """
            The clip may be any format libsndfile reads (WAV, FLAC, Ogg, MP3, …), any rate and channel count. \
            Its speech is found with Silero VAD; a clip that is silent, clipped, too quiet or too short is \
            refused with a message that says what to record. 5–15 s of one person in a quiet room works best.

            With Kokoro (whose voices come from an encoder that was never published), the voice is searched \
            for: Kokoro speaks candidate voices, a speaker embedder scores how close they sound to the clip, \
            and CMA-ES walks the space of the stock voices for --budget (or --candidates). The search keeps its \
            state: run the same command again after an interruption and it goes on. The same clip, --seed and \
            --candidates give the same voice.

            A family that clones from a clip and its transcript (--transcript or --transcribe) says what it \
            needs: \(VoiceAddHelp.cloneHints). --codes FILE --transcript TEXT gives a clip's codes instead of the \
            clip (the authors' examples/encode_reference.py, saved with numpy.save).

            Clone only voices you have the right to use; --consent is kept in the voice's profile.
            """) }

    @Argument(help: "The new voice's name (letters, digits, '-', '_', '.', ':').")
    var name: String
    @Option(help: "The clip to clone.")
    var from: String?
    @Option(help: ArgumentHelp("NeuTTS: the reference's NeuCodec codes instead of a clip (.npy of integers, or raw little-endian int32), "
        + "with --transcript.", valueName: "FILE"))
    var codes: String?
    @Option(help: "The model id or family to clone for (default: the first installed model that clones; Kokoro here).")
    var model: String?
    @Option(help: "What the clip says (the families that need it).")
    var transcript: String?
    @Flag(help: "Find out what the clip says with speech recognition (and show it).")
    var transcribe = false
    @Option(help: "A note on your right to use this voice, kept in its profile (e.g. \"my own voice\").")
    var consent: String?
    @Option(help: "The voice's language, BCP 47 (default: the model's).")
    var language: String?
    @Option(help: "Kokoro: how long the whole command may take, the search, the choice after it and the check included; e.g. 90s, 10m, 1h.")
    var budget = "10m"
    @Option(help: "Kokoro: the search's seed.")
    var seed: UInt64 = 1
    @Option(help: "Kokoro: stop after this many candidates (the same clip, seed and count give the same voice on a machine).")
    var candidates: Int?
    @Option(help: "Kokoro: random directions searched beyond the ones the stock voices span (0–64).")
    var extraDirections = 0
    @Flag(help: "Replace a library voice of the same name.")
    var replace = false
    @Flag(help: "Kokoro: when the search finds nothing closer to the clip than a stock voice, save that stock voice under the new name (otherwise nothing is saved).")
    var keepStock = false
    @Flag(help: "Skip the similarity check at the end.")
    var noCheck = false
    @OptionGroup(title: "History") var history: HistoryOptIn

    @OptionGroup(title: "Models installed on first use") var firstUse: FirstUseOptions

    func validate() throws {
        guard let seconds = BudgetOption.seconds(budget), seconds > 0, seconds <= 7 * 86_400 else {
            throw ValidationError("--budget '\(budget)' is not a duration between 1 s and 7 days (write 90s, 10m or 1h)")
        }
        if let candidates, candidates < 1 { throw ValidationError("--candidates must be at least 1") }
        guard (0...64).contains(extraDirections) else { throw ValidationError("--extra-directions must be between 0 and 64") }
        if transcript != nil, transcribe { throw ValidationError("give --transcript or --transcribe, not both") }
        switch (from, codes) {
        case (nil, nil): throw ValidationError("give the clip to clone with --from CLIP (or, for NeuTTS, its codes with --codes FILE)")
        case (_?, _?): throw ValidationError("give --from CLIP or --codes FILE, not both")
        case (nil, _?):
            if transcript?.isEmpty ?? true { throw ValidationError("--codes needs --transcript TEXT: what the reference clip says") }
            if transcribe { throw ValidationError("--transcribe needs a clip; with --codes give --transcript TEXT") }
        default: break
        }
    }

    func run() async throws {
        AACSupport.enable()
        if let codes { return try await addCodes(codes) }
        guard let from else { return }
        let url = URL(fileURLWithPath: from)
        guard FileManager.default.fileExists(atPath: url.path) else { throw ValidationError("there is no file \(from)") }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
              size <= BudgetOption.maximumClipBytes else {
            throw ValidationError("\(from) is larger than a clip may be (\(BudgetOption.maximumClipBytes >> 20) MiB): cut 5–15 s of speech from it")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { throw ValidationError("\(from) cannot be read") }
        if consent == nil {
            FileHandle.standardError.write(Data("warble: no --consent given: clone only voices you have the right to use\n".utf8))
        }
        let searched = ModelDefaults.current?.multilingualVoice
        let searchFamily = searched.flatMap { (try? ModelCatalogue.load())?.entry($0, pypi: true)?.family }
        if let searched, model == nil || searchFamily.map({ model?.lowercased().hasPrefix($0) == true }) == true {
            // The multilingual voice model (Kokoro) clones by searching its voice space, scored by the speaker embedder.
            try await FirstUse.ensureMultilingualVoice(forVoice: searched, offline: firstUse.offline)
            try await FirstUse.ensureSpeakerEmbedder(command: "voice add", offline: firstUse.offline)
        }
        let engine = EngineFactory.make()
        let cancel = CancellationToken()
        let interruption = Interruption.watch { cancel.cancel() }
        defer { interruption.stop() }
        let meter = SearchProgress(candidateLimit: candidates)
        let began = Date()
        let request = VoiceCloneRequest(
            name: name, clip: data, clipName: from, model: model, transcript: transcript, transcribe: transcribe,
            consent: consent, language: language,
            search: VoiceSearch.Options(budget: BudgetOption.seconds(budget)!, maximumCandidates: candidates, seed: seed,
                                              extraDirections: extraDirections), replacing: replace, keepStock: keepStock)
        let result: VoiceCloneResult
        do {
            result = try await engine.addVoice(request, cancel: cancel) { meter.show($0) }
        } catch where cancel.isCancelled {
            meter.finish()
            FileHandle.standardError.write(Data("warble: stopped; run the same command again to go on from where the search was\n".utf8))
            throw ExitCode(130)
        } catch let error as ModelError {
            // What went wrong and what to do, without the usage text a mistyped option gets.
            meter.finish()
            SpeechInput.note("error: \(error.message)")
            if let model, error.message.contains("no installed model that clones"),
               let hint = (try? ModelCatalogue.load())?.models.first(where: { model.lowercased().hasPrefix($0.family) && $0.cloneHint != nil })?.cloneHint {
                SpeechInput.note(hint)
            }
            throw ExitCode.failure
        }
        meter.finish()
        if let search = result.search {
            print(String(format: "Searched %d candidate%@ in %@ (%.1f a minute, %d direction%@%@).", search.candidates,
                         search.candidates == 1 ? "" : "s", PullProgress.duration(search.seconds), search.candidatesPerMinute,
                         search.dimensions, search.dimensions == 1 ? "" : "s",
                         search.resumed ? ", resumed" : ""))
            print(String(format: "Similarity to the clip on the choosing texts: %.3f (the best stock voice there, %@: %.3f).",
                         search.similarity, search.startVoice, search.startSimilarity))
            if let wer = search.wordErrorRate, let start = search.startWordErrorRate {
                print(String(format: "Words Whisper missed on them: %.0f %% (that stock voice: %.0f %%).", wer * 100, start * 100))
            }
            if let stock = search.stockVoice {
                print("No candidate beat the stock voice \(stock): '\(result.profile.id)' is that voice's own table (--keep-stock).")
            }
        }
        print("Added voice '\(result.profile.id)' (\(result.profile.model)). Speak with: warble say --voice \(result.profile.id) \"Hello.\"")
        HistoryRecorder.record(HistoryRecorder.clone(result, clip: from), enabled: history.enabled)
        // The check speaks two sentences with the voice and each stock voice of its model: about a candidate's time
        // each (a candidate speaks two texts), from the search's own pace; within the budget, or skipped.
        let left = (BudgetOption.seconds(budget) ?? 0) - Date().timeIntervalSince(began)
        let voices = await engine.voices.filter { $0.model == result.profile.model }.count
        let checkSeconds = result.search.map { $0.seconds / Double(max(1, $0.candidates)) * Double(voices) * 2 } ?? 0
        if !noCheck, result.profile.source?.speakerEmbedding != nil, result.search != nil, left < checkSeconds {
            print("The check is skipped: the budget is spent (warble voice check \(result.profile.id) runs it).")
        } else if !noCheck, result.profile.source?.speakerEmbedding != nil {
            let check = try await engine.checkVoice(result.profile.id, sentences: Array(VoiceCheckCommand.sentences.prefix(2)))
            VoiceCheckCommand.report(check)
        }
    }
}

extension VoiceAddCommand {
    /// `--codes FILE --transcript T`: a NeuTTS voice from its reference's codes.
    func addCodes(_ path: String) async throws {
        let url = URL(fileURLWithPath: path)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else {
            throw ValidationError("there is no file \(path)")
        }
        guard size <= 1 << 20 else { throw ValidationError("\(path) is larger than a reference's codes may be (1 MiB)") }
        guard let data = FileManager.default.contents(atPath: url.path) else { throw ValidationError("\(path) cannot be read") }
        let engine = EngineFactory.make()
        let profile: VoiceProfile
        do {
            profile = try await engine.addReferenceCodesVoice(name: name, codes: data, codesName: url.lastPathComponent,
                                                        transcript: transcript ?? "", model: model, language: language,
                                                        replacing: replace)
        } catch let error as ModelError {
            throw ValidationError(error.message)
        }
        if case .referenceCodes(let codes, _) = profile.conditioning {
            print(String(format: "Added voice '%@' (%@) from %d codes (%.1f s of reference). Speak with: warble say --voice %@ \"Hello.\"",
                         profile.id, profile.model, codes.count, Double(codes.count) / 50, profile.id))
        }
    }
}

/// Reading `--budget` and the clip size limit.
enum BudgetOption {
    /// The largest clip file read (a few minutes of uncompressed stereo at 48 kHz).
    static let maximumClipBytes = 256 << 20

    /// "90", "90s", "10m", "1h", "1.5h" in seconds; nil when unreadable.
    static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("min", 60), ("h", 3600), ("m", 60), ("s", 1)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            return Double(trimmed.dropLast(suffix.count)).map { $0 * scale }.flatMap { $0.isFinite ? $0 : nil }
        }
        return Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
    }
}

/// The clone's progress on standard error: the clip, the transcript, and a bar for the search with the
/// best score so far (redrawn in place on a terminal, a line every tenth of the way otherwise). The
/// way is the budget, or `--candidates` when that ends the search sooner.
final class SearchProgress: @unchecked Sendable {
    private let candidateLimit: Int?
    private let terminal = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private var tenth = -1
    private var drew = false

    init(candidateLimit: Int? = nil) {
        self.candidateLimit = candidateLimit
    }

    func show(_ event: VoiceCloneEvent) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case let .clip(fileSeconds, speechSeconds, level, shortened):
            write(String(format: "clip: %.1f s, speech %.1f s at %.0f dBFS%@\n", fileSeconds, speechSeconds, level,
                         shortened ? " (cut to the longest the model takes)" : ""))
        case .transcript(let text):
            write("transcript: \(text)\n")
        case let .searchStarted(model, dimensions, resumed):
            write("searching \(model)'s voices in \(dimensions) directions\(resumed ? " (resuming)" : "")\n")
        case .searching(let p) where p.phase != .searching:
            guard case let .choosing(judged, total) = p.phase else { return }
            let line = String(format: "choosing: %d of %d finalists spoken and heard on the choosing texts  %@ of the budget left",
                              judged, total, PullProgress.duration(max(0, p.budget - p.seconds)))
            if terminal {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                drew = true
            } else {
                write(line + "\n")
            }
        case .searching(let p):
            let byCount = candidateLimit.map { Double(p.candidates) / Double(max(1, $0)) } ?? 0
            let fraction = min(1, max(p.seconds / max(1, p.budget), byCount))
            let left = min(p.budget - p.seconds, byCount > 0 ? p.seconds * (1 - byCount) / byCount : .infinity)
            let line = String(format: "[%@%@] %3.0f%%  %d candidate%@  best %.3f (start %.3f)  %@ left",
                              String(repeating: "#", count: Int(fraction * 24)), String(repeating: "-", count: 24 - Int(fraction * 24)),
                              fraction * 100, p.candidates, p.candidates == 1 ? "" : "s", p.best, p.start, PullProgress.duration(max(0, left)))
            if terminal {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                drew = true
            } else if Int(fraction * 10) != tenth {
                tenth = Int(fraction * 10)
                write(line + "\n")
            }
        }
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drew { FileHandle.standardError.write(Data("\n".utf8)) }
        drew = false
    }

    private func write(_ text: String) {
        if drew { FileHandle.standardError.write(Data("\n".utf8)); drew = false }
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The parts of `voice add`'s help that come from the catalogue.
enum VoiceAddHelp {
    /// The catalogue's cloning hints (each family's once), or where to look when the catalogue is missing.
    static var cloneHints: String {
        var seen = Set<String>()
        let hints = ((try? ModelCatalogue.load())?.models ?? []).compactMap(\.cloneHint).filter { seen.insert($0).inserted }
        return hints.isEmpty ? "see `warble models available --task voiceEncoding`" : hints.joined(separator: "; ")
    }
}
