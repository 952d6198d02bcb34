import Foundation
import Testing
import WarbleAudio

/// WSOLA time stretching: the length follows the speed, the pitch stays, speed 1 gives the input back,
/// and streaming in pieces of any size gives exactly what one piece gives.
@Suite struct TimeStretcherTests {
    static let rate = 22050

    static func tone(_ hertz: Double, seconds: Double) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { Float(0.5 * sin(2 * Double.pi * hertz * Double($0) / Double(rate))) }
    }

    static func stretch(_ samples: [Float], speed: Double, pieces: [Int]? = nil) -> [Float] {
        let stretcher = TimeStretcher(speed: speed, sampleRate: rate)
        var out: [Float] = []
        var index = 0
        for size in pieces ?? [samples.count] where index < samples.count {
            out += stretcher.process(Array(samples[index..<min(samples.count, index + size)]))
            index += size
        }
        if index < samples.count { out += stretcher.process(Array(samples[index...])) }
        return out + stretcher.finish()
    }

    /// Zero crossings per second over the middle of `samples`, halved: the frequency of a tone.
    static func frequency(_ samples: [Float]) -> Double {
        let middle = samples[(samples.count / 4)..<(samples.count * 3 / 4)]
        let crossings = zip(middle, middle.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / 2 / (Double(middle.count) / Double(rate))
    }

    @Test(arguments: [0.5, 1.5, 2, 3])
    func lengthFollowsTheSpeedAndPitchStays(speed: Double) {
        let input = Self.tone(200, seconds: 2)
        let output = Self.stretch(input, speed: speed)
        let expected = Double(input.count) / speed
        #expect(abs(Double(output.count) - expected) <= Double(Self.rate) * 0.03, "\(output.count) against \(expected)")
        #expect(abs(Self.frequency(output) - 200) < 4, "pitch \(Self.frequency(output)) Hz")
    }

    @Test func speedOneGivesTheInputBack() {
        let input = Self.tone(330, seconds: 1)
        let output = Self.stretch(input, speed: 1)
        let edge = Self.rate / 20
        for i in edge..<(input.count - edge) { #expect(abs(output[i] - input[i]) < 1e-4, "sample \(i)"); if abs(output[i] - input[i]) >= 1e-4 { break } }
    }

    @Test func piecesOfAnySizeGiveTheSameOutput() {
        var generator = SystemRandomNumberGenerator()
        let input = (0..<30_000).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        let whole = Self.stretch(input, speed: 1.7)
        let pieces = Self.stretch(input, speed: 1.7, pieces: [1, 7, 300, 2, 5000, 13, 4096, 1, 9999])
        #expect(whole == pieces)
    }

    /// The length announced before the stream (what makes a WAV header exact at speed 4) is the length made.
    @Test(arguments: [1.3, 2, 2.5, 4])
    func theOutputLengthIsKnownBeforehand(speed: Double) {
        for frames in [0, 1, 550, 551, 22050, 33_333] {
            let input = Self.tone(220, seconds: Double(frames) / Double(Self.rate))
            let made = Self.stretch(input, speed: speed, pieces: [1000]).count
            #expect(TimeStretcher(speed: speed, sampleRate: Self.rate).outputFrames(forInput: input.count) == made, "\(frames) frames")
        }
    }
}
