/// What went wrong in the speech-dispatcher module.
public struct SpeechdError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A SET/AUDIO value the module does not accept.
        case badSetting
        /// No voice is installed, or the engine could not start.
        case noVoices
        /// The install/uninstall command could not do its work.
        case install
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
