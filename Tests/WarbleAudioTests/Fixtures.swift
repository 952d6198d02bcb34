import Foundation
import Testing
@testable import WarbleAudio

/// Goldens written by `tools/audio/make_fixtures.py` into `Tests/Fixtures/generated/audio`:
/// `index.json` plus raw little-endian float32 arrays.
enum Fixtures {
    struct Index: Decodable {
        struct Entry: Decodable { let file: String; let shape: [Int] }
        let arrays: [String: Entry]
        let scalars: [String: Double]
    }

    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Tests/Fixtures/generated/audio")
    }()

    static let missingMessage = "audio fixtures missing in \(directory.path): run scripts/test.sh "
        + "(or tools/audio/make_fixtures.py Tests/Fixtures/generated/audio)"

    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture '\(name)' not found. \(Fixtures.missingMessage)" }
    }

    static let index: Index? = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("index.json")) else { return nil }
        return try? JSONDecoder().decode(Index.self, from: data)
    }()

    /// An array and its shape; fails the test when fixtures are missing (its trait skips it first,
    /// unless WARBLE_REQUIRE_FIXTURES=1).
    static func array(_ name: String) throws -> (values: [Float], shape: [Int]) {
        guard let entry = index?.arrays[name] else { throw Missing(name: name) }
        let data = try Data(contentsOf: directory.appendingPathComponent(entry.file))
        let values = data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        #expect(values.count == entry.shape.reduce(1, *), "\(name): size does not match its shape")
        return (values, entry.shape)
    }

    static func matrix(_ name: String) throws -> FeatureMatrix {
        let (values, shape) = try array(name)
        precondition(shape.count == 2, "\(name) is not 2-D")
        return FeatureMatrix(rows: shape[0], columns: shape[1], values: values)
    }

    static func scalar(_ name: String) throws -> Double {
        guard let value = index?.scalars[name] else { throw Missing(name: name) }
        return value
    }

    static func file(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(name: name) }
        return url
    }
}

/// Largest absolute difference; infinity when the sizes differ.
func maxAbsDiff(_ a: [Float], _ b: [Float]) -> Float {
    guard a.count == b.count else { return .infinity }
    var worst: Float = 0
    for i in a.indices { worst = max(worst, abs(a[i] - b[i])) }
    return worst
}

/// Largest difference relative to the reference's largest magnitude.
func maxRelDiff(_ a: [Float], reference b: [Float]) -> Float {
    let scale = b.map(abs).max() ?? 1
    return maxAbsDiff(a, b) / max(scale, .leastNormalMagnitude)
}

/// Signal-to-noise ratio of `a` against reference `b`, in dB.
func snr(_ a: [Float], reference b: [Float]) -> Double {
    precondition(a.count == b.count)
    var signal = 0.0, noise = 0.0
    for i in a.indices {
        signal += Double(b[i]) * Double(b[i])
        noise += Double(a[i] - b[i]) * Double(a[i] - b[i])
    }
    return 10 * log10(signal / max(noise, 1e-300))
}
