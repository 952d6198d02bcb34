import Foundation

/// The module's configuration file (speech-dispatcher passes its path as the only argument), in
/// speech-dispatcher's dotconf style: `Name value` or `Name "value"` lines, `#` comments.
///
///     WarbleDefaultVoice "en_US-joe-medium"
///     WarbleHome "/home/me/.local/share/warble"
///     WarbleOnnxRuntimeLibrary "/home/me/.local/share/warble/lib/libonnxruntime.so"
///     WarbleSoundIconFolder "/usr/share/sounds/sound-icons/"
///     WarbleCharacterCache 512
///     WarblePrewarm 1
///     WarbleLexicon "/home/me/names.pls"
public struct ModuleConfiguration: Sendable, Equatable {
    public var defaultVoice: String?
    public var warbleHome: String?
    public var onnxRuntimeLibrary: String?
    /// A pronunciation lexicon (W3C PLS) applied to everything spoken (`WarbleLexicon /path/file.pls`).
    public var lexicon: String?
    public var soundIconFolder = "/usr/share/sounds/sound-icons/"
    /// How many rendered characters and keys are kept.
    public var characterCacheEntries = 512
    /// Load the default voice at INIT and render the letters and digits, so that CHAR is quick.
    public var prewarm = true
    /// Lines that were not understood (logged by the module).
    public var warnings: [String] = []

    public init() {}

    public init(text: String) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let name = String(line.prefix { !$0.isWhitespace })
            var value = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            switch name.lowercased() {
            case "warbledefaultvoice": defaultVoice = value
            case "warblehome": warbleHome = value
            case "warbleonnxruntimelibrary": onnxRuntimeLibrary = value
            case "warblelexicon": lexicon = value
            case "warblesoundiconfolder": soundIconFolder = value
            case "warblecharactercache":
                if let count = Int(value), count >= 0 { characterCacheEntries = count } else {
                    warnings.append("line \(number + 1): WarbleCharacterCache '\(value)' is not a count")
                }
            case "warbleprewarm": prewarm = value != "0"
            default: warnings.append("line \(number + 1): unknown setting '\(name)'")
            }
        }
    }

    /// The file at `path` (none or unreadable: the defaults, with a warning when a path was given).
    public static func load(path: String?) -> ModuleConfiguration {
        guard let path, !path.isEmpty else { return ModuleConfiguration() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            var configuration = ModuleConfiguration()
            configuration.warnings.append("cannot read configuration file \(path); using the defaults")
            return configuration
        }
        return ModuleConfiguration(text: text)
    }
}
