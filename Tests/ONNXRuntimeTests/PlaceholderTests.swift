import Testing
@testable import ONNXRuntime

@Test func placeholderONNXRuntime() { #expect(Bool(true)) }
