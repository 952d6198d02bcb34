import ArgumentParser
import Foundation
import WarbleAudio

/// Where `warble say` puts its audio, chunk by chunk.
///
/// WAV to a file is written as it comes and its sizes patched on close; WAV and raw PCM to standard
/// output stream as they come. FLAC, Ogg and MP3 go through libsndfile, which encodes whole files:
/// those are collected and written at the end.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case wav, flac, ogg, mp3, raw

    /// The format a file name implies, if any.
    init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "wav", "wave": self = .wav
        case "flac": self = .flac
        case "ogg", "oga", "opus": self = .ogg
        case "mp3": self = .mp3
        case "raw", "pcm": self = .raw
        default: return nil
        }
    }
}

protocol AudioSink {
    mutating func write(_ samples: [Float], sampleRate: Int) throws
    mutating func finish() throws
}

enum AudioSinks {
    static func make(path: String, format: OutputFormat) throws -> any AudioSink {
        let toStdout = path == "-"
        switch format {
        case .wav:
            return toStdout ? WAVPipeSink() : try WAVFileSink(path: path)
        case .raw:
            return RawSink(handle: toStdout ? .standardOutput : try createFile(path))
        case .flac, .ogg, .mp3:
            let fileFormat: SoundFileFormat = format == .flac ? .flac16 : format == .ogg ? .oggVorbis : .mp3
            guard SoundFile.canWrite(fileFormat) else {
                throw ValidationErrorMessage("this libsndfile (\(SoundFile.libraryVersion)) cannot write \(fileFormat); "
                    + "it can write: \(SoundFile.writableFormats.map(\.description).joined(separator: ", "))")
            }
            return EncodedSink(path: path, format: fileFormat)
        }
    }

    static func createFile(_ path: String) throws -> FileHandle {
        do { return try OutputFile.open(path) } catch { throw ValidationErrorMessage(error.description) }
    }
}

struct ValidationErrorMessage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct WAVFileSink: AudioSink {
    let path: String
    var writer: WAVFileWriter?

    init(path: String) throws {
        self.path = path
    }

    mutating func write(_ samples: [Float], sampleRate: Int) throws {
        if writer == nil { writer = try WAVFileWriter(url: URL(fileURLWithPath: path), sampleRate: sampleRate) }
        try writer?.write(AudioBuffer(mono: samples, sampleRate: sampleRate))
    }

    mutating func finish() throws {
        try writer?.close()
    }
}

struct WAVPipeSink: AudioSink {
    var writer: WAVStreamWriter?

    mutating func write(_ samples: [Float], sampleRate: Int) throws {
        if writer == nil { writer = try WAVStreamWriter(fileHandle: .standardOutput, sampleRate: sampleRate) }
        try writer?.write(AudioBuffer(mono: samples, sampleRate: sampleRate))
    }

    mutating func finish() throws {}
}

/// 16-bit little-endian mono PCM, no header.
struct RawSink: AudioSink {
    let handle: FileHandle

    mutating func write(_ samples: [Float], sampleRate: Int) throws {
        var data = Data(count: samples.count * 2)
        data.withUnsafeMutableBytes { raw in
            for (i, sample) in samples.enumerated() {
                let value = Int16(max(-1, min(1, sample)) * 32767)
                raw.storeBytes(of: value.littleEndian, toByteOffset: i * 2, as: Int16.self)
            }
        }
        try handle.write(contentsOf: data)
    }

    mutating func finish() throws {
        if handle !== FileHandle.standardOutput { try handle.close() }
    }
}

struct EncodedSink: AudioSink {
    let path: String
    let format: SoundFileFormat
    var samples: [Float] = []
    var sampleRate = 0

    mutating func write(_ chunk: [Float], sampleRate: Int) throws {
        self.sampleRate = sampleRate
        samples += chunk
    }

    mutating func finish() throws {
        guard sampleRate > 0 else { return }
        var buffer = AudioBuffer(mono: samples, sampleRate: sampleRate)
        if let allowed = format.allowedSampleRates, !allowed.contains(sampleRate) {
            let target = allowed.min { abs($0 - sampleRate) < abs($1 - sampleRate) } ?? 48000
            buffer = try buffer.resampled(to: target)
        }
        if path == "-" {
            try FileHandle.standardOutput.write(contentsOf: try SoundFile.encode(buffer, format: format))
        } else {
            try SoundFile.write(buffer, to: URL(fileURLWithPath: path), format: format)
        }
    }
}
