import Testing
@testable import WarbleText

/// Roman numerals: ordinal after a monarch's, pope's or family name, cardinal after a numbering word.
@Suite struct EnglishRomanNumeralTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("Elizabeth II", "Elizabeth the Second"), ("Queen Elizabeth II's reign", "Queen Elizabeth the Second's reign"),
        ("Pope John XXIII", "Pope John the Twenty-third"), ("Pope John Paul II", "Pope John Paul the Second"),
        ("Henry VIII", "Henry the Eighth"), ("Louis XIV", "Louis the Fourteenth"), ("King Charles III", "King Charles the Third"),
        ("Pope Benedict XVI", "Pope Benedict the Sixteenth"), ("Ramesses II", "Ramesses the Second"),
        ("Felipe VI of Spain", "Felipe the Sixth of Spain"), ("Richard I", "Richard the First"),
        ("John Smith III", "John Smith the Third"), ("Thurston Howell II", "Thurston Howell the Second"),
    ])
    func regnal(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("Chapter IV", "Chapter four"), ("Part IV", "Part four"), ("Part I", "Part one"), ("Volume III", "Volume three"),
        ("Vol. XII", "Volume twelve"), ("World War II", "World War two"), ("World War I", "World War one"),
        ("Super Bowl LVII", "Super Bowl fifty-seven"), ("Apollo XI", "Apollo eleven"), ("Act III, Scene ii", "Act three, Scene two"),
        ("chapter iv", "chapter four"), ("Type II diabetes", "Type two diabetes"), ("Article XIV", "Article fourteen"),
    ])
    func cardinal(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// Letters and words that only look like numerals stay as written.
    @Test(arguments: [
        ("I think so", "I think so"), ("Chapter IIII", "Chapter IIII"), ("Appendix C", "Appendix C"), ("Grade D", "Grade D"),
        ("the part I liked", "the part I liked"), ("Movement mix", "Movement mix"), ("King I", "King I"),
        ("MIX it", "MIX it"), ("Vitamin C", "Vitamin C"),
    ])
    func notNumerals(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
