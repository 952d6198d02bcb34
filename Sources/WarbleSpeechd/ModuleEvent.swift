/// Asynchronous messages from the module to the server while a message is spoken.
public enum ModuleEvent: Sendable, Equatable {
    case indexMark(String)
    case begin
    case end
    case stopped
    case paused
    /// A sound icon the server plays itself (a file path).
    case icon(String)

    /// The bytes sent for this event, ending with "\n".
    public var text: String {
        switch self {
        case .indexMark(let name): "700-\(Replies.oneLine(name))\n700 INDEX MARK\n"
        case .begin: "701 BEGIN\n"
        case .end: "702 END\n"
        case .stopped: "703 STOP\n"
        case .paused: "704 PAUSE\n"
        case .icon(let path): "706-\(Replies.oneLine(path))\n706 ICON\n"
        }
    }

    /// Whether this event ends the message (END, STOP or PAUSE).
    public var isFinal: Bool {
        switch self {
        case .end, .stopped, .paused: true
        default: false
        }
    }
}
