import Foundation
import WarbleSpeech
import WarbleText

/// libFuzzer entry: text or SSML through the whole speech pipeline (SSML parser, SpeechPlanner's
/// chunking and normalising, StreamingSynthesizer's pauses, prosody, fades and events) over a fake
/// renderer. Bad input may throw; it must never crash, and the audio must hold to invariants: every
/// sample finite, at most 1 second of audio per input byte plus 1 second, every event inside its chunk.
///
/// The first byte chooses the request: bit 0 forces SSML (otherwise `SSMLParser.isSSML` decides, as in the
/// server), bit 1 turns on lookahead, bits 2-3 the rate (1, 0.5, 2, 0.25), bit 4 the volume (1, 0.5).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSynthesis(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let flags = data[0]
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let maxSamples = (size + 1) * 1000
    let synthesizer = StreamingSynthesizer(renderer: FakeRenderer(maxSamples: maxSamples), lookahead: flags & 2 != 0)
    let isSSML = flags & 1 != 0 || SSMLParser.isSSML(text)
    let request = SynthesisRequest(text: text, isSSML: isSSML, rate: [1, 0.5, 2, 0.25][Int(flags >> 2) & 3],
                                   volume: flags & 16 != 0 ? 0.5 : 1)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        defer { done.signal() }
        var total = 0
        do {
            for try await chunk in synthesizer.synthesize(request) {
                precondition(chunk.sampleRate == 1000, "chunk at \(chunk.sampleRate) Hz")
                if let bad = chunk.samples.first(where: { !$0.isFinite }) { preconditionFailure("sample \(bad)") }
                total += chunk.samples.count
                precondition(total <= maxSamples, "\(total) samples (\(Double(total) / 1000) s) from a \(size)-byte input")
                for event in chunk.events {
                    precondition((0...chunk.samples.count).contains(event.sampleOffset),
                                 "event \(event) outside its chunk of \(chunk.samples.count) samples")
                }
            }
        } catch {
            // Bad input is refused with an error: not a failure.
        }
    }
    done.wait()
    return 0
}

// SwiftPM links an executable with `main` renamed to `<target>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_synthesis_main")
public func fuzzSynthesisMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzSynthesis($0, $1) }
}
