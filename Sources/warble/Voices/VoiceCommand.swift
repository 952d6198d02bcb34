import ArgumentParser
import Foundation
import WarbleEngine
import WarbleSpeech

/// `warble voice`: the voice library (cloned voices).
struct VoiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice",
        abstract: "Clone voices from a clip and manage the voice library.",
        discussion: """
            Cloned voices live in $WARBLE_HOME/voices and are spoken like stock voices: `warble say --voice NAME`, \
            the server and speech-dispatcher see them at once. Clone only voices you have the right to use: each \
            voice keeps the SHA-256 of its clip and the consent note given with --consent.
            """,
        subcommands: [VoiceAddCommand.self, VoiceListCommand.self, VoiceShowCommand.self, VoiceCheckCommand.self,
                      VoiceRenameCommand.self, VoiceRemoveCommand.self, VoiceExportCommand.self, VoiceImportCommand.self]
    )
}

/// The voice library of the installed models' store.
enum VoiceLibraryAccess {
    static var library: VoiceLibrary { VoiceLibrary(directory: ModelStore().voicesDirectory) }

    /// Voice `name`, or a clear error.
    static func profile(_ name: String) throws -> VoiceProfile {
        let snapshot = library.snapshot()
        guard let profile = snapshot.profile(name) else {
            let names = snapshot.profiles.map(\.id)
            throw ValidationError("the voice library has no voice '\(name)' (it has: "
                + (names.isEmpty ? "none; add one with `warble voice add NAME --from CLIP`" : names.joined(separator: ", ")) + ")")
        }
        return profile
    }
}

struct VoiceListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the voice library's voices (cloned or imported).")

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let snapshot = VoiceLibraryAccess.library.snapshot()
        for problem in snapshot.problems { FileHandle.standardError.write(Data("warble: \(problem.message)\n".utf8)) }
        if json {
            struct Row: Encodable { var id, model, family, language, created: String; var clipSeconds: Double? }
            print(try WarbleJSON.string(snapshot.profiles.map {
                Row(id: $0.id, model: $0.model, family: $0.family, language: $0.language,
                    created: ISO8601DateFormatter().string(from: $0.created), clipSeconds: $0.source?.seconds)
            }, pretty: true))
            return
        }
        guard !snapshot.profiles.isEmpty else {
            print("The voice library is empty. Add a voice with: warble voice add NAME --from CLIP")
            return
        }
        printTable(header: ["VOICE", "MODEL", "LANGUAGE", "CLIP", "ADDED"], rows: snapshot.profiles.map {
            [$0.id, $0.model, $0.language, $0.source.map { String(format: "%.1f s", $0.seconds) } ?? "-",
             ISO8601DateFormatter().string(from: $0.created)]
        })
    }
}

struct VoiceShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a library voice: its model, where it came from, its conditioning.")

    @Argument(help: "The voice's name.")
    var name: String

    func run() async throws {
        let profile = try VoiceLibraryAccess.profile(name)
        print("voice:        \(profile.id)")
        print("model:        \(profile.model) (\(profile.family))")
        print("language:     \(profile.language)")
        print("added:        \(ISO8601DateFormatter().string(from: profile.created))")
        print("conditioning: \(profile.conditioning.kind)")
        if let source = profile.source {
            print("clip:         sha256 \(source.clipSHA256), \(String(format: "%.1f", source.seconds)) s of speech")
            print("transcript:   \(source.transcript ?? "-")")
            print("consent:      \(source.consent ?? "none given")")
            print("embedding:    \(source.speakerEmbedding == nil ? "none (voice check cannot score it)" : "kept")")
        }
    }
}

struct VoiceRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a voice from the library.")

    @Argument(help: "The voice's name.")
    var name: String

    func run() async throws {
        _ = try VoiceLibraryAccess.profile(name)
        do {
            try VoiceLibraryAccess.library.remove(name)
        } catch let error as VoiceLibraryError {
            throw ValidationError(error.message)
        }
        print("Removed voice '\(name)'.")
    }
}

struct VoiceRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Give a library voice another name.")

    @Argument(help: "The voice's name.")
    var name: String
    @Argument(help: "Its new name (letters, digits, '-', '_', '.', ':').")
    var newName: String

    func run() async throws {
        _ = try VoiceLibraryAccess.profile(name)
        do {
            try VoiceLibraryAccess.library.rename(name, to: newName)
        } catch let error as VoiceLibraryError {
            throw ValidationError(error.message)
        }
        print("Renamed voice '\(name)' to '\(newName)'.")
    }
}

struct VoiceExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a library voice to one file (its profile, the clip's hash, its conditioning and consent note).",
        discussion: "The file is checksummed: `warble voice import` refuses a damaged or edited one. The clip itself is not in it.")

    @Argument(help: "The voice's name.")
    var name: String
    @Option(name: .shortAndLong, help: "The file to write (- for standard output).")
    var output: String

    func run() async throws {
        let data = try VoiceProfileFile.encode(try VoiceLibraryAccess.profile(name))
        if output == "-" {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ValidationError("cannot write \(output): \(error.localizedDescription)")
        }
        print("Wrote voice '\(name)' to \(output) (\(data.count) bytes).")
    }
}

struct VoiceImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Add a voice exported with `warble voice export`, or a CosyVoice 3 voice from the seed iOS app, to the library.",
        discussion: """
            FILE is a file written by `warble voice export`, or a directory holding the four files the seed \
            iOS app saves for a CosyVoice 3 voice: speaker_embedding.bin, prompt_tokens.bin, prompt_mel.bin \
            and prompt_text.txt. Such a voice is named with --name (the directory's name when left out).
            """)

    @Argument(help: ArgumentHelp("The exported file, or a directory of the seed app's four files.", valueName: "file"))
    var file: String
    @Option(help: "Name it this instead of the name it was exported with (for a directory: instead of the directory's name).")
    var name: String?
    @Option(help: "For a seed-app directory: the CosyVoice 3 model that speaks it (the installed one when left out).")
    var model: String?
    @Flag(help: "Replace a library voice of the same name.")
    var replace = false

    func run() async throws {
        let url = URL(fileURLWithPath: file)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            try await importSeedApp(url)
            return
        }
        guard model == nil else { throw ValidationError("--model is for a seed-app directory; an exported file names its model") }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else {
            throw ValidationError("\(file) cannot be read")
        }
        guard size <= VoiceProfileFile.maximumBytes, let data = FileManager.default.contents(atPath: url.path) else {
            throw ValidationError("\(file) is \(size) bytes, more than a voice file may be (\(VoiceProfileFile.maximumBytes >> 20) MiB)")
        }
        do {
            var profile = try VoiceProfileFile.decode(data, source: file)
            if let name { profile.id = name; profile.displayName = name }
            try VoiceLibraryAccess.library.add(profile, replacing: replace)
            print("Imported voice '\(profile.id)' (\(profile.model)).")
            await warnIfModelMissing(profile, engine: EngineFactory.make())
        } catch let error as VoiceLibraryError {
            throw ValidationError(error.message)
        }
    }

    private func importSeedApp(_ directory: URL) async throws {
        let engine = EngineFactory.make()
        let profile: VoiceProfile
        do {
            profile = try await engine.importSeedAppVoice(directory: directory, name: name ?? directory.standardizedFileURL.lastPathComponent,
                                                          model: model, replacing: replace)
        } catch let error as ModelError {
            throw ValidationError(error.message)
        }
        var tokens = 0
        if case .speakerPrompt(_, let promptTokens, _, _) = profile.conditioning { tokens = promptTokens.count }
        print("Imported CosyVoice 3 voice '\(profile.id)' (\(profile.model)) from the seed app's files: \(tokens) prompt tokens "
            + String(format: "(%.1f s of speech)", Double(tokens) / 25) + ".")
        await warnIfModelMissing(profile, engine: engine)
    }

    private func warnIfModelMissing(_ profile: VoiceProfile, engine: Engine) async {
        if await !engine.voices.contains(where: { $0.id == profile.id }) {
            FileHandle.standardError.write(Data("warble: its model \(profile.model) is not installed: it cannot speak until it is\n".utf8))
        }
    }
}
