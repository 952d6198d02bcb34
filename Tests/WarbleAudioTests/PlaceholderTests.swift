import Testing
@testable import WarbleAudio

@Test func placeholderWarbleAudio() { #expect(Bool(true)) }
