import Testing
@testable import WarbleText

/// Scores and ranges: the dash read "to".
@Suite struct EnglishRangeTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("won 4-1", "won four to one"), ("Arsenal beat Chelsea 2–1", "Arsenal beat Chelsea two to one"),
        ("they lost 24-17 to Dallas", "they lost twenty-four to seventeen to Dallas"), ("the final score was 3-2", "the final score was three to two"),
        ("won 3-0", "won three to nothing"), ("drew 1-1 with Leeds", "drew one to one with Leeds"), ("a 3-2 win", "a three to two win"),
        ("their 4–0 defeat", "their four to nothing defeat"), ("Spain won the final 1 - 0", "Spain won the final one to nothing"),
        ("led 10-7 at halftime", "led ten to seven at halftime"), ("tied 2-2", "tied two to two"),
        ("scored twice in a 5-3 victory", "scored twice in a five to three victory"), ("Beat them 103-99!", "Beat them one hundred three to ninety-nine!"),
    ])
    func scores(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("pages 20–25", "pages twenty to twenty-five"), ("pp. 20-25", "pages twenty to twenty-five"),
        ("the 1914–1918 war", "the nineteen fourteen to nineteen eighteen war"), ("in 1939-45", "in nineteen thirty-nine to nineteen forty-five"),
        ("the 2019–20 season", "the twenty nineteen to twenty twenty season"), ("5-10 km", "five to ten kilometers"),
        ("ages 3 – 5", "ages three to five"), ("10–20%", "ten to twenty percent"), ("$5–$10", "five dollars to ten dollars"),
        ("March 3–5", "March third to fifth"), ("8:00–9:15 am", "eight to nine fifteen a m"), ("9am-5pm", "nine a m to five p m"),
        ("10-11 am", "ten to eleven a m"), ("14:00–15:30", "fourteen hundred to fifteen thirty"), ("1.5-2.5 kg", "one point five to two point five kilograms"),
    ])
    func ranges(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// Digit-dash chains are codes and dates, not ranges; a dash after a letter is a hyphen.
    @Test(arguments: [
        ("2025-03-14", "March fourteenth, twenty twenty-five"), ("1-800-555-0199", "one, eight oh oh, five five five, oh one nine nine"),
        ("COVID-19", "COVID-nineteen"), ("x-1", "x-one"), ("a 3-4-5 triangle", "a three-four-five triangle"),
        ("F-16", "F-sixteen"),
    ])
    func notRanges(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
