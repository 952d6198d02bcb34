import Testing
@testable import WarbleText

/// Where the context decides between two readings of the same written form: one table per ambiguity.
@Suite struct EnglishAmbiguityTests {
    let normalizer = EnglishNormalizer()

    /// A four-digit number is a year unless a plural noun counts what it numbers and no word asks for a year.
    @Test(arguments: [
        ("in 1999", "in nineteen ninety-nine"), ("1999 was a good year", "nineteen ninety-nine was a good year"),
        ("1500 soldiers", "one thousand five hundred soldiers"), ("about 2000 people", "about two thousand people"),
        ("In 1990 students marched", "In nineteen ninety students marched"), ("the 2024 elections", "the twenty twenty-four elections"),
        ("1,999 entries", "one thousand nine hundred ninety-nine entries"), ("since 1850", "since eighteen fifty"),
        ("1800 miles", "one thousand eight hundred miles"), ("the summer of 1969", "the summer of nineteen sixty-nine"),
        ("3000 years", "three thousand years"), ("1776.", "seventeen seventy-six."),
    ])
    func yearOrNumber(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// "St." is Saint before a name, Street at the end of an address.
    @Test(arguments: [
        ("St. Louis", "Saint Louis"), ("Main St.", "Main Street"), ("visit St. Paul's", "visit Saint Paul's"),
        ("123 Main St. Springfield", "one hundred twenty-three Main Street Springfield"), ("on 5th St. Downtown", "on fifth Street Downtown"),
        ("the St. Lawrence River", "the Saint Lawrence River"), ("Elm St. is closed", "Elm Street is closed"),
        ("St. Mary's Church", "Saint Mary's Church"), ("at 42nd St.", "at forty-second Street"),
        ("Ask St. John", "Ask Saint John"), ("He lives on Oak St.", "He lives on Oak Street"), ("St. Petersburg, Russia", "Saint Petersburg, Russia"),
    ])
    func saintOrStreet(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// "Dr." is Doctor before a name, Drive at the end of an address.
    @Test(arguments: [
        ("Dr. Smith", "Doctor Smith"), ("Elm Dr.", "Elm Drive"), ("Ask Dr. Jones", "Ask Doctor Jones"),
        ("12 Oak Dr. Austin", "twelve Oak Drive Austin"), ("Mulholland Dr. is long", "Mulholland Drive is long"),
        ("Dr. Martin Luther King Jr.", "Doctor Martin Luther King Junior"), ("call Dr. Who", "call Doctor Who"),
        ("Sunset Dr., Apt 4", "Sunset Drive, Apt four"), ("Rodeo Dr. and Main St.", "Rodeo Drive and Main Street"), ("Dr. No", "Doctor No"),
        ("our Dr. Patel", "our Doctor Patel"), ("1 Infinite Dr. Cupertino", "one Infinite Drive Cupertino"),
    ])
    func doctorOrDrive(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    /// "in." after a number is an inch; anywhere else it is the word.
    @Test(arguments: [
        ("5 in. long", "five inches long"), ("Come in.", "Come in."), ("1 in.", "one inch"), ("2.5 in. wide", "two point five inches wide"),
        ("a 12-in. pizza", "a twelve-inch pizza"), ("He walked in. Then", "He walked in. Then"), ("3/4 in.", "three quarters of an inch"),
        ("10 in., 12 in.", "ten inches, twelve inches"), ("log in.", "log in."), ("5 in a row", "five in a row"),
        ("born in 1990", "born in nineteen ninety"), ("6 in.)", "six inches)"),
    ])
    func inchOrWord(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
