/// What `warble --version` prints.
enum WarbleVersion {
    /// The release this source tree is (bumped when a release is tagged).
    static let number = "0.5.0-dev"
    static var description: String { "warble \(number)" }
}
