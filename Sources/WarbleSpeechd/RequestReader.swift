/// Turns the server's lines into requests.
///
/// Multi-line requests (SPEAK, CHAR, KEY, SOUND_ICON, SET, AUDIO, LOGLEVEL) get an immediate
/// acknowledgement when they start and become a request when their closing "." arrives. Lines come
/// without their "\n". Data lines that start with "." arrive with an extra "." (SSIP dot escaping),
/// which is removed here.
public struct RequestReader: Sendable {
    /// What to do with a line.
    public enum Step: Sendable, Equatable {
        /// Send this reply now; the request continues on the next lines (or was refused).
        case reply(String)
        /// A complete request.
        case request(ModuleRequest)
    }

    private enum Block: Sendable {
        case message(MessageKind, lines: [String])
        case settings(kind: SettingsBlock, settings: [Setting], malformed: Bool)
    }

    private enum SettingsBlock: Sendable {
        case set, audio, logLevel
    }

    private var block: Block?

    public init() {}

    /// Whether a multi-line block is being read.
    public var isInsideBlock: Bool { block != nil }

    /// Feeds one line; returns what it produces (nil while a block's data lines are read).
    public mutating func consume(_ line: String) -> Step? {
        switch block {
        case .none:
            return start(line)
        case .message(let kind, var lines):
            if line == "." {
                block = nil
                return finishMessage(kind, lines)
            }
            lines.append(line.hasPrefix(".") ? String(line.dropFirst()) : line)
            block = .message(kind, lines: lines)
            return nil
        case .settings(let kind, var settings, var malformed):
            if line == "." {
                block = nil
                if malformed { return .reply(Replies.badSyntax) }
                switch kind {
                case .set: return .request(.set(settings))
                case .audio: return .request(.audio(settings))
                case .logLevel: return .request(.logLevel(settings))
                }
            }
            if let equals = line.firstIndex(of: "="), equals != line.startIndex,
               line.index(after: equals) != line.endIndex {
                settings.append(Setting(String(line[..<equals]), String(line[line.index(after: equals)...])))
            } else {
                malformed = true
            }
            block = .settings(kind: kind, settings: settings, malformed: malformed)
            return nil
        }
    }

    private mutating func start(_ line: String) -> Step {
        if let kind = MessageKind(rawValue: line) {
            block = .message(kind, lines: [])
            return .reply(Replies.receivingMessage)
        }
        switch line {
        case "SET":
            block = .settings(kind: .set, settings: [], malformed: false)
            return .reply(Replies.receivingSettings)
        case "AUDIO":
            block = .settings(kind: .audio, settings: [], malformed: false)
            return .reply(Replies.receivingAudioSettings)
        case "LOGLEVEL":
            block = .settings(kind: .logLevel, settings: [], malformed: false)
            return .reply(Replies.receivingLogLevel)
        case "INIT": return .request(.initialize)
        case "STOP": return .request(.stop)
        case "PAUSE": return .request(.pause)
        case "QUIT": return .request(.quit)
        default: break
        }
        if line.hasPrefix("LIST VOICES") {
            let words = line.split(separator: " ").dropFirst(2).map(String.init)
            return .request(.listVoices(language: words.first, variant: words.dropFirst().first))
        }
        if line.hasPrefix("DEBUG") { return .request(.debug(line)) }
        return .request(.unknown(line))
    }

    private func finishMessage(_ kind: MessageKind, _ lines: [String]) -> Step {
        let text = lines.joined(separator: "\n")
        if text.isEmpty { return .reply(Replies.cantSpeak) }
        if kind != .text, lines.count > 1 { return .reply(Replies.moreThanOneLine) }
        return .request(.speak(kind, text))
    }
}
