import Foundation
import WarbleEngine
import WarblePhonemes
import WarbleSpeechd
import WarbleText

// sd_warble: Warble's voices as a speech-dispatcher output module. speech-dispatcher starts it with
// the module configuration file as the only argument and speaks the module protocol on standard input
// and output; the log goes to standard error (speech-dispatcher writes it to <LogDir>/warble.log).

var configuration = ModuleConfiguration.load(path: CommandLine.arguments.dropFirst().first)
if let library = configuration.onnxRuntimeLibrary, !library.isEmpty {
    setenv("WARBLE_ORT_LIBRARY", library, 1)
}
if let home = configuration.warbleHome, !home.isEmpty {
    // The ONNX Runtime library is looked up under $WARBLE_HOME/lib as well.
    setenv("WARBLE_HOME", home, 1)
}
let store = configuration.warbleHome.map { ModelStore(home: URL(fileURLWithPath: $0, isDirectory: true)) } ?? ModelStore()
// A lexicon that cannot be read is logged and left out: the module still speaks.
var lexicon: PronunciationLexicon?
if let path = configuration.lexicon, !path.isEmpty {
    do {
        lexicon = try PronunciationLexicon(contentsOf: URL(fileURLWithPath: path))
    } catch {
        configuration.warnings.append("WarbleLexicon \(path) is not usable (\(error)); speaking without it")
    }
}
let engine = Engine(store: store, phonemizer: EspeakPhonemizer(),
                    configuration: Engine.Configuration(defaultVoice: configuration.defaultVoice ?? "en_US-joe-medium",
                                                        idleUnloadAfter: nil, lexicon: lexicon))
let backend = SpeechBackend(voices: await engine.voices, defaultVoice: await engine.defaultVoice,
                            currentVoices: { await engine.voices }) { request in
    engine.synthesize(request)
}
let writer = StandardOutputWriter()
let module = SpeechModule(backend: backend, output: writer, log: ModuleLog(), configuration: configuration)

/// Standard input, line by line, read on a thread of its own (reads block).
let lines = AsyncStream<String> { continuation in
    let thread = Thread {
        while let line = readLine(strippingNewline: true) { continuation.yield(line) }
        continuation.finish()
    }
    thread.name = "sd_warble input"
    thread.start()
}

var reader = RequestReader()
for await line in lines {
    switch reader.consume(line) {
    case .none:
        continue
    case .reply(let reply):
        writer.send(line: reply)
    case .request(let request):
        if case .exit(let status) = await module.handle(request) {
            writer.flush()
            exit(status)
        }
    }
}
// The server closed the pipe.
writer.flush()
exit(0)
