import Foundation
import Testing
@testable import WarbleModels
import WarbleText
import WarbleTestSupport

/// CosyVoice 3's text front end against the authors' (tools/cosytext/make_fixtures.py). Tolerance:
/// none — pieces, normalised text and token counts must match scalar for scalar.
@Suite(.needs(fixtures: "cosytext")) struct CosyVoiceTextParityTests {
    /// Scalars, not `String ==` (which would call canonically equivalent texts equal).
    static func scalars(_ texts: [String]) -> [[UInt32]] { texts.map { $0.unicodeScalars.map(\.value) } }

    @Test(arguments: CosyVoiceTextFixtures.cases())
    func matchesTheReference(_ golden: CosyVoiceTextFixtures.Case) throws {
        try #require(!golden.name.hasPrefix("missing"), "\(golden.name)")
        let tokenizer = try CosyVoiceTextFixtures.tokenizer()
        let frontEnd = CosyVoiceTextFrontEnd(tokenizer: tokenizer, englishNormalizer: DigitByDigitReader())
        if golden.error {
            #expect(throws: TextError.self) { try frontEnd.pieces(golden.text) }
            return
        }
        let pieces = try frontEnd.pieces(golden.text)
        #expect(Self.scalars(pieces) == Self.scalars(golden.pieces), "got \(pieces.map(\.debugDescription)), want \(golden.pieces.map(\.debugDescription))")
        #expect(pieces.map { tokenizer.encode($0).count } == golden.counts)
        #expect(Self.scalars([frontEnd.normalize(golden.text)]) == Self.scalars([golden.normalized]))
        if let chinese = golden.chinese { #expect(CosyVoiceTextRules.containsChinese(golden.text) == chinese) }
    }

    @Test func theCasesCoverWhatTheyShould() throws {
        let cases = CosyVoiceTextFixtures.cases()
        try #require(cases.count >= 30, "\(cases.first?.name ?? "no cases")")
        #expect(cases.filter { $0.pieces.count > 1 && $0.chinese == true }.count >= 2)
        #expect(cases.filter { $0.pieces.count > 1 && $0.chinese == false }.count >= 2)
        #expect(cases.filter(\.error).count >= 4)
        #expect(cases.filter { $0.chinese == nil && !$0.error }.count >= 2)
    }
}
