import Foundation
import Testing
@testable import WarbleAudio

/// Output files are written in place: a link (or a device such as /dev/null) stays what it was.
@Suite struct OutputFileTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("warble-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writersKeepALinkAndWriteThroughIt() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.wav")
        let link = directory.appendingPathComponent("link.wav")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let buffer = AudioBuffer(mono: [0, 0.5, -0.5, 0.25], sampleRate: 16000)

        let writer = try WAVFileWriter(url: link, sampleRate: 16000)
        try writer.write(buffer)
        try writer.close()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try WAVDecoder.decode(contentsOf: target).audio.frameCount == 4)

        try WAVEncoder(sampleFormat: .int16).write(buffer, to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try WAVDecoder.decode(contentsOf: target).audio.frameCount == 4)
    }

    @Test func aMissingDirectoryIsAClearError() {
        #expect(throws: OutputFile.OpenError.self) { try OutputFile.open("/nonexistent-warble-dir/out.wav") }
    }
}
