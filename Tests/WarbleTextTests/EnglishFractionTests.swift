import Testing
@testable import WarbleText

/// Vulgar fractions and a/b read by its context.
@Suite struct EnglishFractionTests {
    let normalizer = EnglishNormalizer()

    @Test(arguments: [
        ("¼", "one quarter"), ("½", "one half"), ("⅔ of voters", "two thirds of voters"), ("2½", "two and a half"),
        ("2 ½ cups", "two and a half cups"), ("1¼ miles", "one and a quarter miles"), ("¾ cup", "three quarters of a cup"),
        ("⅛ in.", "one eighth of an inch"), ("3⅝", "three and five eighths"), ("⅓ tsp", "one third of a teaspoon"),
        ("1⁄2", "one half"), ("⅒", "one tenth"), ("½ kg", "one half of a kilogram"),
    ])
    func vulgar(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }

    @Test(arguments: [
        ("2/5 of the votes", "two fifths of the votes"), ("1/2", "one half"), ("3/4", "three quarters"), ("2/3", "two thirds"),
        ("5/16", "five sixteenths"), ("1 1/2 cups", "one and a half cups"), ("2 3/8", "two and three eighths"),
        ("3/4 cup", "three quarters of a cup"), ("1/4 mi", "one quarter of a mile"), ("rated 8/10", "rated eight out of ten"),
        ("scored 95/100", "scored ninety-five out of one hundred"), ("due on 3/14", "due on March fourteenth"),
        ("open 24/7", "open twenty-four seven"), ("after 9/11", "after nine eleven"), ("a 50/50 chance", "a fifty-fifty chance"),
        ("1/3 of an hour", "one third of an hour"), ("¼ cup of sugar", "one quarter cup of sugar"), ("3/4 cup of milk", "three quarters of a cup of milk"),
    ])
    func inContext(_ input: String, _ expected: String) { #expect(normalizer.normalize(input) == expected) }
}
