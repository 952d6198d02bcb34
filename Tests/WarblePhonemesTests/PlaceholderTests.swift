import Testing
@testable import WarblePhonemes

@Test func placeholderWarblePhonemes() { #expect(Bool(true)) }
