/// What a recorded session did.
public enum SessionKind: String, Codable, Sendable, CaseIterable {
    case speech, transcription, translation, clone
}

/// Which text of a session a `session_text` row holds.
public enum SessionTextRole: String, Codable, Sendable, CaseIterable, Comparable {
    case source, transcript, translation, srt

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Whether a stored audio file was the session's input (what was heard) or its output (what was spoken).
public enum SessionAudioRole: String, Codable, Sendable, CaseIterable {
    case input, output
}
