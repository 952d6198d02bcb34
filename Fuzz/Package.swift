// swift-tools-version: 6.1
// Fuzz targets for Warble, kept out of the main package so its build never sees fuzzer flags.
// Build and run with scripts/fuzz.sh (adds -sanitize=fuzzer,address to every module). Each target
// defines LLVMFuzzerTestOneInput; libFuzzer supplies the driver (see each target's `*_main`).
import PackageDescription

// libFuzzer supplies main(); the targets only define LLVMFuzzerTestOneInput.
let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "WarbleFuzz",
    dependencies: [.package(name: "Warble", path: "..")],
    targets: [
        // WAVDecoder / WAVEncoder (pure Swift).
        .executableTarget(name: "fuzz-wav", dependencies: [.product(name: "Warble", package: "Warble")],
                          swiftSettings: fuzzSettings),
        // SoundFile.decode: libsndfile through the in-memory virtual I/O.
        .executableTarget(name: "fuzz-decode", dependencies: [.product(name: "Warble", package: "Warble")],
                          swiftSettings: fuzzSettings),
        // WarblePhonemes is the smallest product that carries WarbleText (no audio or ONNX code to build).
        .executableTarget(name: "fuzz-ssml", dependencies: [.product(name: "WarblePhonemes", package: "Warble")],
                          swiftSettings: fuzzSettings),
        // SSML or text -> SpeechPlanner -> StreamingSynthesizer, over a fake renderer (no model).
        .executableTarget(name: "fuzz-synthesis", dependencies: [.product(name: "Warble", package: "Warble")],
                          swiftSettings: fuzzSettings),
        // The server's parsers (internal types, reached with @testable: the build is a debug one).
        .executableTarget(name: "fuzz-multipart", dependencies: [.product(name: "WarbleServer", package: "Warble"),
                                                                 .product(name: "Warble", package: "Warble")],
                          swiftSettings: fuzzSettings),
        .executableTarget(name: "fuzz-speech-body", dependencies: [.product(name: "WarbleServer", package: "Warble")],
                          swiftSettings: fuzzSettings),
        // Model files a user hands Warble or a pull installs: NeuTTS reference codes, Marian shortlists,
        // SentencePiece models.
        .executableTarget(name: "fuzz-model-files", dependencies: [.product(name: "Warble", package: "Warble")],
                          swiftSettings: fuzzSettings),
        // speech-dispatcher's module protocol: the request reader, SET settings, SPEAK/CHAR/KEY plans.
        .executableTarget(name: "fuzz-speechd", dependencies: [.product(name: "WarbleSpeechd", package: "Warble"),
                                                               .product(name: "Warble", package: "Warble")],
                          swiftSettings: fuzzSettings),
    ],
    swiftLanguageModes: [.v6]
)
