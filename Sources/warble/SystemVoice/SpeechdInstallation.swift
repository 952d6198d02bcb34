import Foundation
import WarbleEngine

/// The files that make sd_warble a speech-dispatcher module for one user.
///
/// speech-dispatcher 0.11 looks for module programs in `$XDG_DATA_HOME/../libexec/speech-dispatcher-modules/`
/// (normally `~/.local/libexec/…`) and for their configuration in `$XDG_CONFIG_HOME/speech-dispatcher/modules/`.
/// Modules there are found automatically unless the user's own `speechd.conf` lists modules with
/// `AddModule`; then a line is added to it too.
struct SpeechdInstallation {
    static let marker = "# Added by `warble speechd install`; `warble speechd uninstall` removes it."

    let dataHome: URL
    let moduleLink: URL
    let moduleConfiguration: URL
    let userServerConfiguration: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? home.appendingPathComponent(".local/share", isDirectory: true)
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? home.appendingPathComponent(".config", isDirectory: true)
        dataHome = data
        moduleLink = data.deletingLastPathComponent()
            .appendingPathComponent("libexec/speech-dispatcher-modules/sd_warble").standardizedFileURL
        moduleConfiguration = config.appendingPathComponent("speech-dispatcher/modules/warble.conf")
        userServerConfiguration = config.appendingPathComponent("speech-dispatcher/speechd.conf")
    }

    /// The module configuration written for `voice`, pointing at this user's models.
    static func configurationText(voice: String?, warbleHome: URL, onnxRuntimeLibrary: String?) -> String {
        var lines = [marker, "# Settings of sd_warble, Warble's speech-dispatcher output module.", ""]
        lines.append("# The voice used when a client asks for none (see `spd-say -o warble -L`).")
        lines.append(voice.map { "WarbleDefaultVoice \"\($0)\"" } ?? "# WarbleDefaultVoice \"en_US-joe-medium\"")
        lines.append("# Where the models are (speech-dispatcher may run with another environment).")
        lines.append("WarbleHome \"\(warbleHome.path)\"")
        if let onnxRuntimeLibrary { lines.append("WarbleOnnxRuntimeLibrary \"\(onnxRuntimeLibrary)\"") }
        lines.append("# Sound icons played for SOUND_ICON (the sound-icons package); others are spoken.")
        lines.append("# WarbleSoundIconFolder \"/usr/share/sounds/sound-icons/\"")
        lines.append("# Rendered characters and keys kept in memory; 1 loads the default voice at start.")
        lines.append("# WarbleCharacterCache 512")
        lines.append("# WarblePrewarm 1")
        lines.append("# A pronunciation lexicon (W3C PLS) for everything spoken.")
        lines.append("# WarbleLexicon \"/home/me/names.pls\"")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether a speechd.conf text names its modules itself (then modules are not found automatically).
    static func listsModules(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            line.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("addmodule")
        }
    }

    static func addModuleLine(binary: URL) -> String {
        "AddModule \"warble\" \"\(binary.path)\" \"warble.conf\""
    }

    /// Installs; returns what was done, one line each.
    func install(binary: URL, voice: String?) throws -> [String] {
        let files = FileManager.default
        var done: [String] = []
        // speech-dispatcher looks in "$XDG_DATA_HOME/../libexec/…", which only resolves if the data
        // directory exists.
        try files.createDirectory(at: dataHome, withIntermediateDirectories: true)
        try files.createDirectory(at: moduleLink.deletingLastPathComponent(), withIntermediateDirectories: true)
        if (try? files.destinationOfSymbolicLink(atPath: moduleLink.path)) != nil || files.fileExists(atPath: moduleLink.path) {
            try files.removeItem(at: moduleLink)
        }
        try files.createSymbolicLink(at: moduleLink, withDestinationURL: binary)
        done.append("linked \(moduleLink.path) -> \(binary.path)")

        try files.createDirectory(at: moduleConfiguration.deletingLastPathComponent(), withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment
        let library = environment[ModelStore.runtimeLibraryVariable].flatMap { $0.isEmpty ? nil : $0 }
        let text = Self.configurationText(voice: voice, warbleHome: ModelStore.defaultHome, onnxRuntimeLibrary: library)
        try text.write(to: moduleConfiguration, atomically: true, encoding: .utf8)
        done.append("wrote \(moduleConfiguration.path)")

        if let server = try? String(contentsOf: userServerConfiguration, encoding: .utf8), Self.listsModules(server) {
            let line = Self.addModuleLine(binary: moduleLink)
            if !server.contains(line) {
                let addition = (server.hasSuffix("\n") ? "" : "\n") + Self.marker + "\n" + line + "\n"
                try (server + addition).write(to: userServerConfiguration, atomically: true, encoding: .utf8)
                done.append("added the warble module to \(userServerConfiguration.path)")
            }
        }
        return done
    }

    /// Uninstalls what `install` made; returns what was done.
    func uninstall() throws -> [String] {
        let files = FileManager.default
        var done: [String] = []
        if (try? files.destinationOfSymbolicLink(atPath: moduleLink.path)) != nil {
            try files.removeItem(at: moduleLink)
            done.append("removed \(moduleLink.path)")
        } else if files.fileExists(atPath: moduleLink.path) {
            done.append("left \(moduleLink.path) alone: it is not a link made by warble")
        }
        if let text = try? String(contentsOf: moduleConfiguration, encoding: .utf8) {
            if text.hasPrefix(Self.marker) {
                try files.removeItem(at: moduleConfiguration)
                done.append("removed \(moduleConfiguration.path)")
            } else {
                done.append("left \(moduleConfiguration.path) alone: it was not written by warble")
            }
        }
        if let server = try? String(contentsOf: userServerConfiguration, encoding: .utf8), server.contains(Self.marker) {
            var lines = server.components(separatedBy: "\n")
            while let index = lines.firstIndex(of: Self.marker) {
                lines.remove(at: index)
                if index < lines.count, lines[index].hasPrefix("AddModule \"warble\"") { lines.remove(at: index) }
            }
            try lines.joined(separator: "\n").write(to: userServerConfiguration, atomically: true, encoding: .utf8)
            done.append("removed the warble module from \(userServerConfiguration.path)")
        }
        return done
    }
}
