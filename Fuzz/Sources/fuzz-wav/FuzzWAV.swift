import Foundation
import WarbleAudio

/// libFuzzer entry: any bytes must give a WAVFile or a WAVError, never a crash, and what decodes
/// must survive re-encoding unchanged in shape.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let strict = try? WAVDecoder.decode(bytes, options: .init(allowTruncation: false))
    guard let file = try? WAVDecoder.decode(bytes) else {
        if strict != nil { fatalError("strict decoding accepted what lenient decoding rejected") }
        return 0
    }
    let audio = file.audio
    guard audio.channelCount >= 1, audio.sampleRate >= 1 else { fatalError("invalid buffer shape") }
    if audio.frameCount * audio.channelCount * file.sampleFormat.bytesPerSample > size {
        fatalError("decoded more sample bytes than the input holds")
    }
    if let strict, strict.audio.frameCount > audio.frameCount { fatalError("strict decode longer than lenient") }
    if file.sampleFormat.isEncodable, audio.frameCount <= 4096,
       let encoded = try? WAVEncoder(sampleFormat: file.sampleFormat).encode(audio),
       let again = try? WAVDecoder.decode(encoded) {
        guard again.audio.frameCount == audio.frameCount, again.audio.channelCount == audio.channelCount,
              again.sampleFormat == file.sampleFormat else { fatalError("re-encoded file changed shape") }
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

@_cdecl("fuzz_wav_main")
public func fuzzWAVMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzWAV($0, $1) }
}
