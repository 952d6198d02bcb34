import Testing
@testable import WarblePhonemes
