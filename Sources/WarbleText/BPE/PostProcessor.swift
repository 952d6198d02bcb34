/// Adds special tokens around an encoded sequence (Hugging Face's `post_processor`).
enum PostProcessor: Sendable {
    /// `TemplateProcessing` for a single sequence: ids before and after.
    case template(prefix: [Int32], suffix: [Int32])
    /// `ByteLevel`, or nothing: ids are unchanged.
    case none

    func apply(_ ids: [Int32]) -> [Int32] {
        switch self {
        case .template(let prefix, let suffix): return prefix + ids + suffix
        case .none: return ids
        }
    }
}
