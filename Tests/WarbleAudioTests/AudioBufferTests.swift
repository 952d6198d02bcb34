import Testing
@testable import WarbleAudio

@Suite struct AudioBufferTests {
    @Test func interleavingRoundTrips() throws {
        let stereo = try AudioBuffer(interleaved: [1, -1, 2, -2, 3, -3], channelCount: 2, sampleRate: 8000)
        #expect(stereo.channels == [[1, 2, 3], [-1, -2, -3]])
        #expect(stereo.interleaved() == [1, -1, 2, -2, 3, -3])
        #expect(stereo.frameCount == 3 && stereo.channelCount == 2)
        #expect(stereo.duration == 3.0 / 8000)
    }

    @Test func invalidShapesThrow() {
        #expect(throws: AudioBufferError.partialFrame(sampleCount: 3, channelCount: 2)) {
            try AudioBuffer(interleaved: [1, 2, 3], channelCount: 2, sampleRate: 8000)
        }
        #expect(throws: AudioBufferError.channelLengthMismatch(channel: 1, count: 1, expected: 2)) {
            try AudioBuffer(channels: [[1, 2], [3]], sampleRate: 8000)
        }
        #expect(throws: AudioBufferError.invalidSampleRate(0)) { try AudioBuffer(channels: [[1]], sampleRate: 0) }
        #expect(throws: AudioBufferError.noChannels) { try AudioBuffer(channels: [], sampleRate: 8000) }
    }

    @Test func downmixSelectSliceConcatenate() throws {
        let stereo = try AudioBuffer(channels: [[1, 0.5, 0], [0, 0.5, 1]], sampleRate: 100)
        #expect(stereo.mixedToMono().samples == [0.5, 0.5, 0.5])
        #expect(try stereo.channel(1).samples == [0, 0.5, 1])
        #expect(try stereo.selectingChannels([1, 1, 0]).channelCount == 3)
        #expect(throws: AudioBufferError.channelOutOfRange(2, channelCount: 2)) { try stereo.channel(2) }
        #expect(stereo.slice(frames: 1..<10).channels == [[0.5, 0], [0.5, 1]])
        #expect(stereo.slice(frames: -5..<1).frameCount == 1)
        #expect(stereo.slice(seconds: 0.01, 0.02).channels == [[0.5], [0.5]])
        let joined = try AudioBuffer.concatenating([stereo, stereo])
        #expect(joined.frameCount == 6 && joined.channels[1] == [0, 0.5, 1, 0, 0.5, 1])
        var mono = AudioBuffer(mono: [1], sampleRate: 100)
        #expect(throws: AudioBufferError.channelCountMismatch(2, expected: 1)) { try mono.append(stereo) }
        #expect(throws: AudioBufferError.sampleRateMismatch(50, expected: 100)) {
            try mono.append(AudioBuffer(mono: [1], sampleRate: 50))
        }
    }

    @Test func pcm16RoundTrips() throws {
        let pcm: [Int16] = [0, 1, -1, .max, .min, 1234]
        let buffer = try AudioBuffer(pcm16: pcm, channelCount: 2, sampleRate: 8000)
        #expect(buffer.frameCount == 3)
        #expect(buffer.pcm16Interleaved() == pcm)
        #expect(AudioBuffer(mono: [1.5, -1.5, .nan], sampleRate: 1).pcm16Interleaved() == [.max, .min, 0])
    }

    @Test func errorMessagesSayWhatWasFoundAndWhatIsAccepted() {
        let message = AudioBufferError.channelLengthMismatch(channel: 1, count: 3, expected: 4).description
        #expect(message.contains("3") && message.contains("4") && message.contains("same length"))
    }
}
