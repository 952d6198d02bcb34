import Testing
@testable import WarbleText

/// Telephone numbers, digit by digit in the groups they are written in ("oh" for zero).
@Suite struct EnglishPhoneNumberTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("(212) 555-0147", "two one two, five five five, oh one four seven"),
        ("call (212) 555-0147 today", "call two one two, five five five, oh one four seven today"),
        ("555-123-4567", "five five five, one two three, four five six seven"),
        ("+1 (555) 123-4567", "plus one, five five five, one two three, four five six seven"),
        ("call 555.987.6543 now", "call five five five, nine eight seven, six five four three now"),
        ("1-800-555-0199", "one, eight oh oh, five five five, oh one nine nine"),
        ("+44 20 7946 0958", "plus four four, two oh, seven nine four six, oh nine five eight"),
        ("+33 1 23 45 67 89", "plus three three, one, two three, four five, six seven, eight nine"),
        ("+49 30 1234567", "plus four nine, three oh, one two three four five six seven"),
        ("+1-212-555-0147", "plus one, two one two, five five five, oh one four seven"),
        ("020 7946 0958", "oh two oh, seven nine four six, oh nine five eight"),
        ("(02) 9374 4000", "oh two, nine three seven four, four oh oh oh"),
        ("0412 345 678", "oh four one two, three four five, six seven eight"),
        ("call 555-0147", "call five five five, oh one four seven"), ("dial 555-1234", "dial five five five, one two three four"),
        ("+12125550147", "plus one two one two five five five oh one four seven"),
    ])
    func phoneNumbers(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// Not telephone numbers: a score, a range, a short signed number.
    @Test(arguments: [
        ("pages 100-1000", "pages one hundred to one thousand"), ("+5 points", "+five points"), ("won 3-1", "won three to one"),
    ])
    func notPhoneNumbers(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
