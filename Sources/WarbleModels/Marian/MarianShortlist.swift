import Foundation
import WarbleSpeech

/// Marian's binary lexical shortlist (`lex.*.bin`, marian-dev `BinaryShortlistGenerator`): for each
/// source word, the target words it is likely translated as. The decoder scores only the selected
/// words (`indices(for:)`), as bergamot's engine does.
///
/// Layout (little-endian): six u64 — magic `0xF11A48D5013417F5`, checksum, firstNum, bestNum,
/// wordToOffsetSize, shortListsSize — then wordToOffset u64[wordToOffsetSize], then shortLists
/// u32[shortListsSize]. The checksum is marian's `hashMem` over the u64 words from firstNum to the end.
public struct MarianShortlist: Sendable, Equatable {
    public static let magic: UInt64 = 0xF11A_48D5_0134_17F5
    /// Ids below it are always selected (EOS and `<unk>` among them).
    public let firstNum: Int
    public let bestNum: Int
    let wordToOffset: [Int]
    let shortLists: [Int32]

    public init(contentsOf url: URL, verifyChecksum: Bool = true) throws {
        let data: Data
        do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw ModelError(.badModel, "cannot read the Marian shortlist \(url.path): \(error.localizedDescription)")
        }
        try self.init(data: data, name: url.lastPathComponent, verifyChecksum: verifyChecksum)
    }

    public init(data: Data, name: String = "shortlist.bin", verifyChecksum: Bool = true) throws {
        func bad(_ why: String) -> ModelError { ModelError(.badModel, "\(name) is not a Marian binary shortlist: \(why)") }
        guard data.count >= 48 else { throw bad("\(data.count) bytes, shorter than its 48-byte header") }
        let (offsets, lists, first, best): ([Int], [Int32], UInt64, UInt64) = try data.withUnsafeBytes { raw in
            func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            guard u64(0) == Self.magic else { throw bad("its magic is 0x\(String(u64(0), radix: 16))") }
            let (checksum, first, best, offsetCount, listCount) = (u64(8), u64(16), u64(24), u64(32), u64(40))
            guard offsetCount >= 1, offsetCount < 1 << 32, listCount < 1 << 40,
                  48 + 8 * Int(offsetCount) + 4 * Int(listCount) == raw.count else {
                throw bad("its header claims \(offsetCount) offsets and \(listCount) entries; the file has \(raw.count) bytes")
            }
            if verifyChecksum {
                var seed: UInt64 = 0
                var at = 16
                while at + 8 <= raw.count {
                    seed ^= u64(at) &+ 0x9E37_79B9 &+ (seed << 6) &+ (seed >> 2)
                    at += 8
                }
                guard seed == checksum else { throw bad("its checksum does not match (the file is damaged)") }
            }
            // Every offset is checked before it becomes an Int: a damaged file may hold any 64-bit value.
            var offsets: [Int] = []
            offsets.reserveCapacity(Int(offsetCount))
            for k in 0..<Int(offsetCount) {
                let offset = u64(48 + 8 * k)
                guard offset <= listCount else { throw bad("offset \(k) is \(offset), past its \(listCount) entries") }
                offsets.append(Int(offset))
            }
            let base = 48 + 8 * Int(offsetCount)
            let lists = (0..<Int(listCount)).map {
                Int32(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 4 * $0, as: UInt32.self)))
            }
            return (offsets, lists, first, best)
        }
        guard offsets.first == 0, offsets.last == lists.count, zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw bad("its offsets are not a monotone index into its lists")
        }
        guard first < 1 << 20, best < 1 << 20 else { throw bad("firstNum \(first), bestNum \(best)") }
        firstNum = Int(first)
        bestNum = Int(best)
        wordToOffset = offsets
        shortLists = lists
    }

    /// The source words it has lists for.
    public var sourceWords: Int { wordToOffset.count - 1 }

    /// The target ids to score for a source row (`source` as fed to the encoder, EOS included), sorted
    /// ascending — marian-dev's `BinaryShortlistGenerator::generate` with `shared` (source and target
    /// vocabularies are the same file, as bergamot passes it for these models): every id below
    /// `firstNum`; each distinct source id itself (shared) and its list; then the smallest unselected
    /// ids from `firstNum` up until the count is a multiple of 8.
    public func indices(for source: [Int], vocabularySize: Int, shared: Bool = true) -> [Int] {
        var selected = [Bool](repeating: false, count: vocabularySize)
        var count = 0
        func select(_ id: Int) {
            guard id >= 0, id < vocabularySize, !selected[id] else { return }
            selected[id] = true
            count += 1
        }
        for id in 0..<min(firstNum, vocabularySize) { select(id) }
        for word in Set(source) {
            if shared { select(word) }
            guard word >= 0, word < sourceWords else { continue }
            for k in wordToOffset[word]..<wordToOffset[word + 1] { select(Int(shortLists[k])) }
        }
        var next = firstNum
        while count % 8 != 0, next < vocabularySize {
            select(next)
            next += 1
        }
        return selected.indices.filter { selected[$0] }
    }
}
