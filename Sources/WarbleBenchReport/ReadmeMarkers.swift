import Foundation

/// The README's generated part: the text between `<!-- bench-report:start -->` and `<!-- bench-report:end -->`.
public enum ReadmeMarkers {
    public static let start = "<!-- bench-report:start -->"
    public static let end = "<!-- bench-report:end -->"

    public struct MissingMarkers: Error, CustomStringConvertible {
        public var description: String
    }

    /// `document` with the text between the markers replaced by `content` (the markers kept, all else unchanged).
    public static func replace(in document: String, with content: String, name: String = "the file") throws(MissingMarkers) -> String {
        guard let open = document.range(of: start) else {
            throw MissingMarkers(description: "\(name) has no \(start) line (add it and \(end) where the benchmark table goes)")
        }
        guard let close = document.range(of: end, range: open.upperBound..<document.endIndex) else {
            throw MissingMarkers(description: "\(name) has \(start) but no \(end) after it")
        }
        let body = content.hasSuffix("\n") ? content : content + "\n"
        return String(document[..<open.upperBound]) + "\n" + body + String(document[close.lowerBound...])
    }
}
