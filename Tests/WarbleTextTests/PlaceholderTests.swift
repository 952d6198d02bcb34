import Testing
@testable import WarbleText

@Test func placeholderWarbleText() { #expect(Bool(true)) }
