import Testing
@testable import WarbleText

/// URLs, bare domains and e-mail addresses: "at", "dot", "slash", short consonant runs spelled.
@Suite struct EnglishAddressTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("mail john.doe@example.com", "mail john dot doe at example dot com"),
        ("info@example.com", "info at example dot com"), ("Write to info@example.com.", "Write to info at example dot com."),
        ("sales@bbc.co.uk", "sales at b b c dot co dot u k"), ("jane_smith99@mail.org", "jane underscore smith nine nine at mail dot org"),
        ("Visit https://www.example.com/docs.", "Visit w w w dot example dot com slash docs."),
        ("see example.org? no: http://warble.dev/a-b", "see example dot org? no: warble dot dev slash a dash b"),
        ("go to example.com/help", "go to example dot com slash help"), ("example.io", "example dot i o"),
        ("http://localhost:8880/v1", "localhost colon eight eight eight zero slash v one"),
        ("www.gov.uk", "w w w dot gov dot u k"), ("https://github.com/", "github dot com"),
        ("(see wikipedia.org)", "(see wikipedia dot org)"),
    ])
    func addresses(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// Dotted words that are not addresses.
    @Test(arguments: [
        ("e.g. this", "for example this"), ("Node.js", "Node.js"), ("README.md", "README.md"), ("a.m.", "a.m."),
    ])
    func notAddresses(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
