/// Failures of a model pipeline: what was wrong, and what to do about it.
public struct ModelError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A model file is missing or does not match what the pipeline expects.
        case badModel
        /// The input cannot be spoken or recognised (empty text, nothing to say, no audio).
        case badInput
        /// A voice or language the model does not have.
        case unknownVoice
        /// Anything else that went wrong while running.
        case failed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
