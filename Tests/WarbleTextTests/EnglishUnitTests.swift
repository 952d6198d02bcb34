import Testing
@testable import WarbleText

/// Square and cubic units, feet and inches, compound durations.
@Suite struct EnglishUnitTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("100 m²", "one hundred square meters"), ("1 m²", "one square meter"), ("2.5 cm³", "two point five cubic centimeters"),
        ("40 km²", "forty square kilometers"), ("500 cm³", "five hundred cubic centimeters"), ("3m2", "three square meters"),
        ("10 m^2", "ten square meters"), ("1,200 sq ft", "one thousand two hundred square feet"), ("3 sq. mi.", "three square miles"),
        ("5 cu in", "five cubic inches"), ("€3,000 per m²", "three thousand euros per square meter"),
        ("9.8 m/s²", "nine point eight meters per second squared"), ("20 mm²", "twenty square millimeters"),
    ])
    func squareAndCubic(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        (#"5'9""#, "five feet nine inches"), (#"he is 6'2" tall"#, "he is six feet two inches tall"), ("5′ 11″", "five feet eleven inches"),
        (#"6' 1""#, "six feet one inch"), ("a 6' fence", "a six-foot fence"), (#"a 12" ruler"#, "a twelve-inch ruler"),
        ("3.5″ of rain", "three point five inches of rain"), ("5 in. wide", "five inches wide"), ("1 in.", "one inch"),
        ("a 12-in. pizza", "a twelve-inch pizza"), ("3/4 in.", "three quarters of an inch"), ("1 1/2 in. thick", "one and a half inches thick"),
        (#"He said "I have 3""#, #"He said "I have three""#), ("rock 'n' roll", "rock 'n' roll"),
    ])
    func feetAndInches(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("2 hr 5 min", "two hours five minutes"), ("1 hr 1 min", "one hour one minute"), ("1h 30m", "one hour thirty minutes"),
        ("1h30", "one hour thirty minutes"), ("3 min 20 s", "three minutes twenty seconds"), ("5m 30s", "five minutes thirty seconds"),
        ("1 h 15 min 30 s", "one hour fifteen minutes thirty seconds"), ("2 hrs, 10 mins", "two hours ten minutes"),
        ("45 min", "forty-five minutes"), ("30 sec", "thirty seconds"), ("2 hr", "two hours"), ("3m", "three meters"),
        ("ran 3m in 20s", "ran three meters in twenty seconds"),
    ])
    func durations(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
