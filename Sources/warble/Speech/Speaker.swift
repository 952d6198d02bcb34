import Foundation
import WarblePlayback
import WarbleSpeech

/// Where `warble say` sends its audio: a file or standard output, the sound server, or both.
/// Not `Sendable`: it lives in the one task that synthesises.
final class Speaker {
    private var sink: (any AudioSink)?
    private var player: AudioPlayer?
    private let path: String?
    private(set) var seconds = 0.0

    init(path: String?, format: OutputFormat, play: Bool, sampleRate: Int) throws {
        self.path = path
        if let path { sink = try AudioSinks.make(path: path, format: format) }
        if play {
            do { player = try AudioPlayer(sampleRate: sampleRate) } catch {
                throw ValidationErrorMessage(error.description)
            }
        }
    }

    func write(_ chunk: AudioChunk) throws {
        try sink?.write(chunk)
        if let player {
            do { try player.write(chunk.samples) } catch { throw ValidationErrorMessage(error.description) }
        }
        seconds += chunk.duration
    }

    /// Drops audio still queued for the speakers (an interruption should be heard at once).
    func stopPlayback() {
        player?.stop()
        player = nil
    }

    /// Finishes the file (sizes patched, or the whole-file encoding written) and waits for playback to end.
    func finish() throws {
        try sink?.finish()
        sink = nil
        if let player {
            self.player = nil
            do { try player.finish() } catch { throw ValidationErrorMessage(error.description) }
        }
    }

    /// "wrote FILE (N s of audio, FORMAT, voice V)" or "played N s of audio (voice V)", for the closing line.
    func summary(format: OutputFormat, voice: String) -> String {
        guard let path else { return String(format: "played %.1f s of audio (voice %@)", seconds, voice) }
        return String(format: "wrote %@ (%.1f s of audio, %@, voice %@)", path == "-" ? "standard output" : path,
                      seconds, format.rawValue, voice)
    }
}
