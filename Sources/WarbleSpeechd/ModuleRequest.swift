/// What speech-dispatcher sends a message as: SPEAK, CHAR, KEY or SOUND_ICON.
public enum MessageKind: String, Sendable, Equatable, CaseIterable {
    case text = "SPEAK"
    case character = "CHAR"
    case key = "KEY"
    case soundIcon = "SOUND_ICON"
}

/// One `name=value` line of a SET, AUDIO or LOGLEVEL block.
public struct Setting: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A complete request from the server, with its data block already read.
public enum ModuleRequest: Sendable, Equatable {
    case initialize
    case audio([Setting])
    case logLevel([Setting])
    case set([Setting])
    /// The message text: SSML for `.text`, one line for the others (unescaped, without the final ".").
    case speak(MessageKind, String)
    case stop
    case pause
    /// `LIST VOICES [language [variant]]` (the filter arguments came with speech-dispatcher 0.11.5).
    case listVoices(language: String?, variant: String?)
    case debug(String)
    case quit
    case unknown(String)
}
