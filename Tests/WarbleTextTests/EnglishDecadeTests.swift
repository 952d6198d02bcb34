import Testing
@testable import WarbleText

/// Decades and plural numbers, as newspapers write them.
@Suite struct EnglishDecadeTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("the 1960s", "the nineteen sixties"), ("in the 1980s and 1990s", "in the nineteen eighties and nineteen nineties"),
        ("the 1900s", "the nineteen hundreds"), ("the 1800s", "the eighteen hundreds"), ("the 2000s", "the two thousands"),
        ("the 2010s", "the twenty tens"), ("the 2020s", "the twenty twenties"), ("the 1960's", "the nineteen sixties"),
        ("the '60s", "the sixties"), ("the ’90s", "the nineties"), ("the '20s roared", "the twenties roared"),
        ("in her 30s", "in her thirties"), ("temperatures in the 70s", "temperatures in the seventies"),
        ("1000s of fans", "thousands of fans"), ("100s of people", "hundreds of people"), ("roll two 6s", "roll two sixes"),
        ("all 5s and 7s", "all fives and sevens"),
    ])
    func decades(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// "s" after a number: a decade when the number ends in zero, seconds otherwise or when written apart.
    @Test(arguments: [
        ("30 s", "thirty seconds"), ("a 45s rest", "a forty-five seconds rest"), ("ran it in 9.58 s", "ran it in nine point five eight seconds"),
        ("0 to 60 in 4s", "zero to sixty in four seconds"), ("the 1960s", "the nineteen sixties"), ("12 ms", "twelve milliseconds"),
        ("hold for 1 s", "hold for one second"), ("the 60s", "the sixties"), ("wait 90 s, then", "wait ninety seconds, then"),
        ("two 9s", "two nines"), ("in 2 h", "in two hours"), ("cats", "cats"),
    ])
    func secondsOrPlural(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
