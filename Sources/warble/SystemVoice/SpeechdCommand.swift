import ArgumentParser
import Foundation

/// `warble speechd install|uninstall`: Warble's voices for every speech-dispatcher client.
struct SpeechdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speechd",
        abstract: "Offer Warble's voices to speech-dispatcher (screen readers, browsers, spd-say).",
        subcommands: [Install.self, Uninstall.self]
    )

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install the sd_warble output module for the current user.",
            discussion: """
                Links sd_warble into ~/.local/libexec/speech-dispatcher-modules/ and writes \
                ~/.config/speech-dispatcher/modules/warble.conf. After a restart of speech-dispatcher, \
                `spd-say -o warble "Hello"` speaks with Warble.
                """
        )

        @Option(help: "The sd_warble program (default: the one next to this warble).")
        var module: String?

        @Option(help: "The voice used when a client asks for none (see `warble voices`).")
        var voice: String?

        func run() throws {
            let binary = try locateModule()
            let installation = SpeechdInstallation()
            for line in try installation.install(binary: binary, voice: voice) { print(line) }
            print("""

                Restart speech-dispatcher so that it finds the module (it starts again on demand):
                  pkill -x speech-dispatcher   # or: systemctl --user restart speech-dispatcher
                Then try:
                  spd-say -o warble "Hello from Warble"
                  spd-say -o warble -L          # the voices

                For every user instead (as root; build with --static-swift-stdlib to copy the program alone):
                  install -m 755 \(binary.path) /usr/lib/speech-dispatcher-modules/sd_warble
                  install -m 644 \(installation.moduleConfiguration.path) /etc/speech-dispatcher/modules/warble.conf
                """)
        }

        private func locateModule() throws -> URL {
            if let module {
                let url = URL(fileURLWithPath: module).standardizedFileURL
                guard FileManager.default.isExecutableFile(atPath: url.path) else {
                    throw ValidationError("--module \(module): no executable file there")
                }
                return url
            }
            let warble = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
            let candidate = warble.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("sd_warble")
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
                throw ValidationError("""
                    sd_warble was not found next to warble (\(candidate.path)). Build it in Warble's source tree \
                    with `swift build -c release --product sd_warble` (scripts/setup.sh builds it beside warble), \
                    then run `warble speechd install --module .build/release/sd_warble`, or pass --module PATH.
                    """)
            }
            return candidate
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove what `warble speechd install` set up.")

        func run() throws {
            let done = try SpeechdInstallation().uninstall()
            if done.isEmpty { print("Nothing to remove: the warble module is not installed for this user.") }
            for line in done { print(line) }
            print("Restart speech-dispatcher to forget the module: pkill -x speech-dispatcher")
        }
    }
}
