import Foundation
import WarbleAudio

/// libFuzzer entry: `SoundFile.decode` (libsndfile reading through the in-memory virtual I/O, the path
/// every upload takes) must give an AudioBuffer or a SoundFileError for any bytes, never a crash, and
/// what it gives must be a well-formed buffer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard let audio = try? SoundFile.decode(bytes) else { return 0 }
    precondition(audio.channelCount >= 1, "decoded \(audio.channelCount) channels")
    precondition(audio.sampleRate >= 1, "decoded a sample rate of \(audio.sampleRate) Hz")
    precondition(audio.interleaved().count == audio.frameCount * audio.channelCount, "buffer shape disagrees with its samples")
    return 0
}

// SwiftPM links an executable with `main` renamed to `<target>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_decode_main")
public func fuzzDecodeMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzDecode($0, $1) }
}
