import Testing
@testable import WarbleText

/// Table-driven tests, one table per class of written form. Expected strings are exact.
@Suite struct EnglishNormalizerTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("0", "zero"), ("7", "seven"), ("13", "thirteen"), ("42", "forty-two"), ("100", "one hundred"),
        ("105", "one hundred five"), ("1,234", "one thousand two hundred thirty-four"), ("12345", "twelve thousand three hundred forty-five"),
        ("1,000,000", "one million"), ("2,500,000,001", "two billion five hundred million one"),
        ("I have 3 cats", "I have three cats"),
    ])
    func cardinals(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("1st", "first"), ("2nd", "second"), ("3rd", "third"), ("4th", "fourth"), ("11th", "eleventh"),
        ("12th", "twelfth"), ("21st", "twenty-first"), ("40th", "fortieth"), ("102nd", "one hundred second"),
        ("the 100th time", "the one hundredth time"),
    ])
    func ordinals(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("3.14", "three point one four"), ("0.5", "zero point five"), ("-2.75", "minus two point seven five"),
        ("-7", "minus seven"), ("It was -5 outside", "It was minus five outside"), ("x-1", "x-one"),
    ])
    func decimalsAndNegatives(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("in 1999", "in nineteen ninety-nine"), ("2000", "two thousand"), ("2005", "two thousand five"),
        ("2025", "twenty twenty-five"), ("1905", "nineteen oh five"), ("1800", "eighteen hundred"),
        ("2010", "twenty ten"), ("9999", "nine thousand nine hundred ninety-nine"),
    ])
    func years(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("3/14/2025", "March fourteenth, twenty twenty-five"), ("2025-03-14", "March fourteenth, twenty twenty-five"),
        ("March 3rd, 2025", "March third, twenty twenty-five"), ("March 3", "March third"),
        ("on Jan. 21, 1999", "on January twenty-first, nineteen ninety-nine"),
        ("3 March 2025", "the third of March twenty twenty-five"), ("December 2024", "December twenty twenty-four"),
    ])
    func dates(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("4:30 pm", "four thirty p m"), ("4:30pm", "four thirty p m"), ("10:05 a.m.", "ten oh five a m."),
        ("16:45", "sixteen forty-five"), ("9:00", "nine o'clock"), ("7 pm", "seven p m"), ("12:00 AM", "twelve a m"),
    ])
    func times(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("$12.50", "twelve dollars and fifty cents"), ("$1", "one dollar"), ("$0.99", "zero dollars and ninety-nine cents"),
        ("€3", "three euros"), ("£1m", "one million pounds"), ("$1.5 billion", "one point five billion dollars"),
        ("$1,200", "one thousand two hundred dollars"), ("-$5", "minus five dollars"), ("¥500", "five hundred yen"),
    ])
    func currency(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("50%", "fifty percent"), ("3.5%", "three point five percent"), ("-2%", "minus two percent"), ("100 %", "one hundred percent"),
    ])
    func percentages(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("5 km", "five kilometers"), ("1 km", "one kilometer"), ("3.5kg", "three point five kilograms"),
        ("20°C", "twenty degrees Celsius"), ("-3 °C", "minus three degrees Celsius"), ("60 mph", "sixty miles per hour"),
        ("100m", "one hundred meters"), ("5 m away", "five m away"), ("8 GB", "eight gigabytes"), ("1 ft", "one foot"),
    ])
    func units(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("Dr. Smith", "Doctor Smith"), ("Elm Dr.", "Elm Drive"), ("St. Louis", "Saint Louis"), ("Main St.", "Main Street"),
        ("Mr. and Mrs. Jones", "Mister and Missus Jones"), ("cats, dogs, etc. are pets", "cats, dogs, et cetera are pets"),
        ("cats, dogs, etc.", "cats, dogs, et cetera."), ("Ali vs. Frazier", "Ali versus Frazier"),
        ("fruit, e.g. apples", "fruit, for example apples"), ("No. 5", "number five"),
    ])
    func abbreviations(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        (SayAs(.cardinal), "1234", "one thousand two hundred thirty-four"), (SayAs(.ordinal), "3", "third"),
        (SayAs(.characters), "AB1", "A B one"), (SayAs(.spellOut), "hi!", "H I exclamation mark"),
        (SayAs(.digits), "1234", "one two three four"), (SayAs(.date, format: "dmy"), "14/03/2025", "March fourteenth, twenty twenty-five"),
        (SayAs(.date, format: "ymd"), "2025.03.14", "March fourteenth, twenty twenty-five"), (SayAs(.date, format: "y"), "1999", "nineteen ninety-nine"),
        (SayAs(.time), "4:30pm", "four thirty p m"), (SayAs(.telephone), "+44 20 7946 0958", "plus four four, two oh, seven nine four six, oh nine five eight"),
    ])
    func sayAs(_ sayAs: SayAs, _ input: String, _ expected: String) {
        #expect(normalizer.expand(input, as: sayAs) == expected)
    }

    @Test func deterministicAndLeavesPlainTextAlone() {
        let text = "The quick brown fox, nothing to do here!"
        #expect(normalizer.normalize(text) == text)
        let mixed = "On 3/14/2025 at 4:30 pm Dr. Smith paid $12.50 for 2 kg (50% off)."
        #expect(normalizer.normalize(mixed) == normalizer.normalize(mixed))
        #expect(normalizer.normalize(mixed) == "On March fourteenth, twenty twenty-five at four thirty p m Doctor Smith paid twelve dollars and fifty cents for two kilograms (fifty percent off).")
    }

    @Test func registryFindsByLanguageAndNormalizesSegments() throws {
        let registry = NormalizerRegistry.builtIn
        #expect(registry.normalizer(for: "en-US") != nil)
        #expect(registry.normalizer(for: "fr") == nil)
        #expect(registry.normalizer(for: "zh-CN") is ChineseNormalizer)
        let segments = try SSMLParser().parse(#"<speak>I owe $5. <say-as interpret-as="characters">ok</say-as> <lang xml:lang="zh">3个</lang> <lang xml:lang="fr">3 chats</lang></speak>"#)
        let out = registry.normalize(segments, defaultLanguage: "en")
        #expect(out.compactMap(\.text) == ["I owe five dollars. ", "O K", "三个", "3 chats"])
    }
}
