import Foundation
import WarbleSpeech

extension ModelManifest.File {
    /// The entry of the file at `url`, listed as `path`: its size and sha256, read from disk.
    public init(hashing url: URL, as path: String) throws {
        let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        self.init(path: path, sha256: try SHA256.hex(ofFile: url), bytes: bytes)
    }
}
