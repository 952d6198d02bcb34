import WarbleSpeech

/// Piper's phoneme ids: `^`, then each phoneme followed by the pad `_`, then `$`
/// (ids `1, 0, id, 0, id, 0, …, 2` for the usual map). Phonemes are single Unicode scalars; ones the
/// voice does not know are skipped and reported.
struct PiperPhonemeEncoder: Sendable {
    private let map: [Unicode.Scalar: [Int64]]
    private let bos: [Int64]
    private let eos: [Int64]
    private let pad: [Int64]

    init(map phonemeIDMap: [String: [Int]]) throws {
        var map: [Unicode.Scalar: [Int64]] = [:]
        for (key, ids) in phonemeIDMap {
            let scalars = Array(key.unicodeScalars)
            guard scalars.count == 1 else { continue }
            map[scalars[0]] = ids.map(Int64.init)
        }
        func required(_ symbol: Unicode.Scalar) throws -> [Int64] {
            guard let ids = map[symbol] else {
                throw ModelError(.badModel, "the Piper voice's phoneme_id_map has no '\(symbol)'")
            }
            return ids
        }
        self.map = map
        bos = try required("^")
        eos = try required("$")
        pad = try required("_")
    }

    /// The ids of `phonemes`, and the scalars that were skipped.
    func encode(_ phonemes: String) -> (ids: [Int64], unknown: Set<Unicode.Scalar>) {
        var ids = bos + pad
        var unknown = Set<Unicode.Scalar>()
        ids.reserveCapacity(phonemes.unicodeScalars.count * 2 + 4)
        for scalar in phonemes.unicodeScalars {
            guard let mapped = map[scalar] else {
                unknown.insert(scalar)
                continue
            }
            ids += mapped
            ids += pad
        }
        ids += eos
        return (ids, unknown)
    }
}
