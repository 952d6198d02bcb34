import Foundation
import WarbleModels
import WarbleText

/// libFuzzer entry: the readers of model files a user hands Warble or a pull installs, any bytes must
/// give a value or an error, never a crash. The first byte picks the reader (the rest is the file):
/// 0 NeuTTS reference codes (.npy or raw int32), 1 Marian's binary shortlist, 2 a SentencePiece model.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let file = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0:
        if let codes = try? NeuTTSReferenceCodes.read(file, name: "fuzz") {
            guard codes.count <= file.count else { fatalError("more codes than the file has bytes") }
            _ = try? NeuTTSVoice(codes: codes, transcript: "Hello.")
        }
    case 1:
        if let shortlist = try? MarianShortlist(data: file, verifyChecksum: data[0] % 2 == 0) {
            let selected = shortlist.indices(for: [0, 1, 2, 5], vocabularySize: 64)
            guard selected.allSatisfy({ (0..<64).contains($0) }), selected == selected.sorted() else {
                fatalError("a shortlist selected ids outside the vocabulary or out of order")
            }
        }
    default:
        if let tokenizer = try? SentencePieceTokenizer(modelData: file) {
            let ids = tokenizer.encode("Hello, wörld! 123 ｆｕｌｌ")
            guard ids.allSatisfy({ (0..<tokenizer.vocabularySize).contains($0) }) else { fatalError("an id outside the vocabulary") }
            _ = try? tokenizer.decode(ids)
        }
    }
    return 0
}

// SwiftPM links executables with `main` aliased to `<target>_main`; route it to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_model_files_main")
public func fuzzModelFilesMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzModelFiles($0, $1) }
}
