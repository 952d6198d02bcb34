import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels

/// Installed Whisper models and the fixtures made by `tools/whisper/make_fixtures.py`
/// (`Tests/Fixtures/generated/whisper`) and `tools/asr/make_fixtures.py` (`Tests/Fixtures/generated/asr`).
enum WhisperFixtures {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url
    }()

    static let whisperDirectory = root.appendingPathComponent("Tests/Fixtures/generated/whisper")
    static let asrDirectory = root.appendingPathComponent("Tests/Fixtures/generated/asr")

    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "\(what) is missing: run scripts/test.sh (it installs the models and makes the fixtures)" }
    }

    /// `$WARBLE_HOME/models` as the model store finds it.
    static let modelsDirectory: URL = {
        let env = ProcessInfo.processInfo.environment
        if let home = env["WARBLE_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent("models")
        }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return data.appendingPathComponent("warble/models")
    }()

    private static let tiny = Result { try WhisperModel(directory: modelsDirectory.appendingPathComponent("whisper-tiny.en"), threads: 1) }
    private static let base = Result { try WhisperModel(directory: modelsDirectory.appendingPathComponent("whisper-base"), threads: 1) }

    static func model(_ id: String) throws -> WhisperModel {
        switch id {
        case "whisper-tiny.en": return try tiny.get()
        case "whisper-base": return try base.get()
        default: throw Missing(what: "model \(id)")
        }
    }

    static func json(_ directory: URL) throws -> [String: Any] {
        let url = directory.appendingPathComponent("index.json")
        guard let data = FileManager.default.contents(atPath: url.path),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw Missing(what: url.path) }
        return object
    }

    static func whisperIndex() throws -> [String: Any] { try json(whisperDirectory) }
    static func asrIndex() throws -> [String: Any] { try json(asrDirectory) }

    /// A 16-bit WAV clip of a fixture directory as faster-whisper saw it (sample / 32768).
    static func clip(_ directory: URL, _ name: String) throws -> AudioBuffer {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(what: url.path) }
        return try SoundFile.read(contentsOf: url)
    }

    static func greedyOptions(_ language: String?) -> TranscriptionOptions {
        TranscriptionOptions(language: language, beamSize: 1, temperatures: [0], timestamps: false,
                             conditionOnPreviousText: false)
    }
}

extension Dictionary where Key == String, Value == Any {
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
}
