import Foundation
import WarbleAudio
import WarbleEngine

/// Audio and Whisper models for `warble transcribe` and `warble translate`.
enum SpeechInput {
    /// Reads any format libsndfile knows from `path`, or from standard input when `path` is `-`.
    static func read(_ path: String) throws -> AudioBuffer {
        do {
            if path == "-" {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                guard !data.isEmpty else { throw ModelError(.badInput, "standard input is empty: no audio to read") }
                return try SoundFile.decode(data)
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw ModelError(.badInput, "\(path): no such file")
            }
            return try SoundFile.read(contentsOf: URL(fileURLWithPath: path))
        } catch let error as SoundFileError {
            throw ModelError(.badInput, "\(path == "-" ? "standard input" : path) is not readable audio: \(error)")
        }
    }

    /// The installed Whisper model `id`; when it is missing, the error names the command that installs it.
    static func whisper(_ id: String, threads: Int) throws -> WhisperModel {
        let installed: InstalledModel
        do {
            installed = try ModelStore().model(id)
        } catch let error as ModelStoreError where error.kind == .notInstalled {
            throw ModelError(.badModel, "\(error.message.split(separator: ";").first ?? "")"
                + "; install it with: tools/whisper/install.sh \(id)")
        }
        guard installed.manifest.family == "whisper" else {
            throw ModelError(.badModel, "model '\(id)' is a \(installed.manifest.family) model, not a speech recognition "
                + "model (installed Whisper models: \(whisperIDs().joined(separator: ", ")))")
        }
        return try WhisperModel(directory: installed.directory, threads: threads)
    }

    static func whisperIDs() -> [String] {
        ModelStore().scan().models.filter { $0.manifest.family == "whisper" }.map(\.manifest.id)
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("warble: \(message)\n".utf8))
    }
}
