import Foundation
import WarbleAudio

/// Plays audio through the default device by streaming WAV into the system's player
/// (PipeWire's pw-play, PulseAudio's paplay, or ALSA's aplay, whichever is installed and works).
final class Player {
    private let process: Process
    private let pipe: Pipe
    private let writer: WAVStreamWriter
    private let name: String

    private init(process: Process, pipe: Pipe, writer: WAVStreamWriter, name: String) {
        self.process = process
        self.pipe = pipe
        self.writer = writer
        self.name = name
    }

    static let candidates: [(name: String, arguments: [String])] = [
        ("pw-play", ["-"]), ("paplay", []), ("aplay", ["-q", "-"]),
    ]

    static func start(sampleRate: Int) throws -> Player {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let (name, arguments, executable) = candidates.lazy.compactMap({ candidate -> (String, [String], String)? in
            paths.map { "\($0)/\(candidate.name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
                .map { (candidate.name, candidate.arguments, $0) }
        }).first else {
            throw ValidationErrorMessage("--play needs an audio player (pw-play, paplay or aplay) and a sound device; "
                + "none was found. Write a file with -o instead, or install pulseaudio-utils or alsa-utils.")
        }
        // A player that exits early (no sound server) must surface as a write error with our message,
        // not as a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let handle = pipe.fileHandleForWriting
        let writer = try WAVStreamWriter(sampleRate: sampleRate) { data in try handle.write(contentsOf: data) }
        return Player(process: process, pipe: pipe, writer: writer, name: name)
    }

    func write(_ samples: [Float], sampleRate: Int) throws {
        guard process.isRunning else { throw playbackFailed() }
        do {
            try writer.write(AudioBuffer(mono: samples, sampleRate: sampleRate))
        } catch {
            throw playbackFailed()
        }
    }

    func finish() throws {
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw playbackFailed() }
    }

    private func playbackFailed() -> ValidationErrorMessage {
        ValidationErrorMessage("\(name) could not play the audio: there is probably no sound device "
            + "(on a headless machine write a file with -o instead)")
    }
}
