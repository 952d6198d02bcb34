/// The module's reply lines, as speech-dispatcher 0.11 expects them.
public enum Replies {
    public static let receivingMessage = "202 OK RECEIVING MESSAGE"
    public static let speaking = "200 OK SPEAKING"
    public static let cantSpeak = "301 ERROR CANT SPEAK"
    public static let moreThanOneLine = "305 DATA MORE THAN ONE LINE"
    public static let receivingSettings = "203 OK RECEIVING SETTINGS"
    public static let settingsReceived = "203 OK SETTINGS RECEIVED"
    public static let receivingAudioSettings = "207 OK RECEIVING AUDIO SETTINGS"
    public static let audioInitialized = "203 OK AUDIO INITIALIZED"
    public static let receivingLogLevel = "207 OK RECEIVING LOGLEVEL SETTINGS"
    public static let logLevelSet = "203 OK LOGLEVEL SET"
    public static let voiceListSent = "200 OK VOICE LIST SENT"
    public static let cantListVoices = "304 CANT LIST VOICES"
    public static let quit = "210 OK QUIT"
    public static let badSyntax = "302 ERROR BAD SYNTAX"
    public static let badParameter = "303 ERROR INVALID PARAMETER OR VALUE"
    public static let unknownCommand = "300 ERR UNKNOWN COMMAND"
    public static let loaded = "299 OK LOADED SUCCESSFULLY"
    public static let cantInit = "399 ERR CANT INIT MODULE"

    /// A multi-line reply: every line but the last as `code-line`, then `code final`.
    public static func multiline(code: Int, lines: [String], final: String) -> String {
        var text = ""
        for line in lines { text += "\(code)-\(Self.oneLine(line))\n" }
        return text + "\(code) \(final)"
    }

    /// `line` with its line breaks turned into spaces (a reply line must stay one line).
    static func oneLine(_ line: String) -> String {
        String(line.map { $0.isNewline ? " " : $0 })
    }
}
