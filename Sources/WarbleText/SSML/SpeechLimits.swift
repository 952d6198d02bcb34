/// Bounds on every quantity a request can write into its text, so that output grows with the
/// length of the text and never with a number written in it.
///
/// Cloud engines cap a break at 5–10 s; rates and volumes beyond these make no useful speech.
public enum SpeechLimits {
    /// The longest `<break>` accepted, in seconds; a longer one is refused with its line and column.
    public static let maximumBreak = 10.0

    /// Speaking-rate factors a request or one `<prosody rate>` may ask for (1 is the voice's own).
    /// Nested `<prosody>` elements multiply, and their product is kept inside the same range.
    public static let rate: ClosedRange<Double> = 0.1...10

    /// Pitch factors one `<prosody pitch>` may ask for; nested products are kept inside it.
    public static let pitch: ClosedRange<Double> = 0.25...4

    /// Volume factors (gains): 0 is silent, 4 is about +12 dB. Nested products are kept inside it.
    public static let volume: ClosedRange<Double> = 0...4

    /// A limit or value for a message: `10` rather than `10.0`, `0.1` as it is.
    public static func describe(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `value` moved into `range` (NaN becomes the range's lower bound).
    public static func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
        guard !value.isNaN else { return range.lowerBound }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
