import ArgumentParser
import Foundation
import WarbleAAC
import WarbleAudio
import WarbleSpeech

/// Where `warble say` puts its audio, chunk by chunk.
///
/// WAV to a file is written as it comes and its sizes patched on close; everything else goes through
/// WarbleAudio's `StreamingAudioEncoder` (the server's too): WAV and raw PCM to standard output stream
/// as they come; FLAC, Ogg and MP3 are encoded whole by libsndfile and written at the end.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case wav, flac, ogg, opus, mp3, aiff, aac, raw

    /// The shared encoding behind it.
    var encoding: AudioEncoding {
        switch self {
        case .wav: .wav
        case .flac: .flac
        case .ogg: .oggVorbis
        case .opus: .oggOpus
        case .mp3: .mp3
        case .aiff: .aiff
        case .aac: .aac
        case .raw: .pcm16
        }
    }

    /// The file name extensions that imply each format.
    static let extensions: [(String, OutputFormat)] = [
        ("wav", .wav), ("wave", .wav), ("flac", .flac), ("ogg", .ogg), ("oga", .ogg), ("opus", .opus),
        ("mp3", .mp3), ("aiff", .aiff), ("aif", .aiff), ("aac", .aac), ("raw", .raw), ("pcm", .raw),
    ]

    /// The format a file name implies, if any.
    init?(fileName: String) {
        let suffix = (fileName as NSString).pathExtension.lowercased()
        guard let format = Self.extensions.first(where: { $0.0 == suffix })?.1 else { return nil }
        self = format
    }
}

protocol AudioSink {
    mutating func write(_ chunk: AudioChunk) throws
    mutating func finish() throws
}

enum AudioSinks {
    static func make(path: String, format: OutputFormat) throws -> any AudioSink {
        AACSupport.enable()
        let encoding = format.encoding
        if encoding == .aac, !encoding.isAvailable {
            throw ValidationErrorMessage("this build cannot write AAC (libavcodec has no AAC encoder); "
                + "write .opus, .ogg, .mp3 or .flac instead")
        }
        if let fileFormat = encoding.soundFileFormat, !encoding.isAvailable {
            throw ValidationErrorMessage("this libsndfile (\(SoundFile.libraryVersion)) cannot write \(fileFormat); "
                + "it can write: \(SoundFile.writableFormats.map(\.description).joined(separator: ", "))")
        }
        if format == .wav, path != "-" { return try WAVFileSink(path: path) }
        return EncodedSink(handle: path == "-" ? .standardOutput : try createFile(path), encoding: encoding)
    }

    static func createFile(_ path: String) throws -> FileHandle {
        do { return try OutputFile.open(path) } catch { throw ValidationErrorMessage(error.description) }
    }
}

struct ValidationErrorMessage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// WAV to a file: written as it comes, its sizes patched on close.
struct WAVFileSink: AudioSink {
    let path: String
    var writer: WAVFileWriter?

    init(path: String) throws {
        self.path = path
    }

    mutating func write(_ chunk: AudioChunk) throws {
        if writer == nil { writer = try WAVFileWriter(url: URL(fileURLWithPath: path), sampleRate: chunk.sampleRate) }
        try writer?.write(AudioBuffer(mono: chunk.samples, sampleRate: chunk.sampleRate))
    }

    mutating func finish() throws {
        try writer?.close()
    }
}

/// Any other output: the shared streaming encoder's bytes, written as they come.
struct EncodedSink: AudioSink {
    let handle: FileHandle
    let encoding: AudioEncoding
    var encoder: StreamingAudioEncoder?
    /// Standard output redirected to a regular file: a streamed WAV header gets its sizes at the end.
    let seekable: SeekableOutput?

    init(handle: FileHandle, encoding: AudioEncoding) {
        self.handle = handle
        self.encoding = encoding
        seekable = encoding == .wav ? SeekableOutput(handle) : nil
    }

    mutating func write(_ chunk: AudioChunk) throws {
        // A request whose length is known at its first chunk gets a WAV header with exact sizes.
        if encoder == nil {
            encoder = try StreamingAudioEncoder(encoding: encoding, inputRate: chunk.sampleRate, knownFrames: chunk.requestFrames)
        }
        guard let encoder else { return }
        let bytes = try encoder.encode(chunk.samples)
        if !bytes.isEmpty { try handle.write(contentsOf: bytes) }
    }

    mutating func finish() throws {
        if let encoder {
            let bytes = try encoder.finish()
            if !bytes.isEmpty { try handle.write(contentsOf: bytes) }
            if let seekable, let header = encoder.finishedHeader() { try seekable.overwriteStart(with: header) }
        }
        if handle !== FileHandle.standardOutput { try handle.close() }
    }
}

/// AAC through the optional WarbleAAC target (FFmpeg's libavcodec), its encoder and decoder registered once:
/// what `say` and the server write, `transcribe`, `translate` and the transcription routes read.
enum AACSupport {
    private static let registered: Bool = {
        let encoder = AACEncoder.register()
        let decoder = AACDecoder.register()
        return encoder && decoder
    }()

    @discardableResult
    static func enable() -> Bool { registered }
}
