// swift-tools-version: 6.1
import PackageDescription

// Warble: on-device speech in Swift.
// Layers (dependencies point down only; Docs/Architecture.md):
//   warble (CLI), sd_warble                      the executables: they make the engine and hand it on
//   WarbleServer, WarbleSpeechd                  adapters over the vocabulary alone (no ONNX Runtime)
//   WarbleHub                                    model downloads: the Hugging Face Hub as a ModelSource (HTTP)
//   WarbleEngine                                 one engine for every ability, model store, voice library
//   WarbleModels                                 the model families (Piper/, Kokoro/, Whisper/, VAD/) and the decoding kit
//   WarbleSpeech                                 the backend-free vocabulary: abilities, value types, planner, streaming
//   WarbleAudio, WarbleText                      WarblePhonemes (espeak-ng, GPL-3, kept apart)
//   ONNXRuntime  <-  CONNXRuntime (project-written declarations, loaded with dlopen)

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

// The tests' own code unoptimised, in the release build too (CI's build is release with testability, so that
// the models run at speed): the code under test keeps -O, and the test modules compile in a fraction of the time.
let testCode: [SwiftSetting] = strict + [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "Warble",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "Warble", targets: ["ONNXRuntime", "WarbleAudio", "WarbleText", "WarbleSpeech", "WarbleModels", "WarbleEngine"]),
        // GPL-3 (espeak-ng): a separate product so that the core library never links it.
        .library(name: "WarblePhonemes", targets: ["WarblePhonemes"]),
        .executable(name: "warble", targets: ["warble"]),
        .executable(name: "sd_warble", targets: ["sd_warble"]),
        // For the fuzz package (Fuzz/) only: it fuzzes the server's and the speech-dispatcher module's parsers.
        .library(name: "WarbleServer", targets: ["WarbleServer"]),
        .library(name: "WarbleSpeechd", targets: ["WarbleSpeechd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // Hummingbird's own HTTP stack: the server names its parser's errors (a bad request is a 400, not a 500).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", exact: "0.9.20"),
        // The server's /metrics: swift-metrics' API, rendered by swift-prometheus (a registry per server).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `warble serve`'s graceful drain on SIGTERM (a ServiceGroup around the Hummingbird application).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // MARK: ONNX Runtime
        .target(
            name: "CONNXRuntime",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // Warble's own fused operators (Snake, AdaIN) for the vocoders, registered through the C API.
        .target(name: "CWarbleOperators", dependencies: ["CONNXRuntime"]),
        .target(name: "ONNXRuntime", dependencies: ["CONNXRuntime", "CWarbleOperators"], swiftSettings: strict),

        // MARK: Audio
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CKissFFT", providers: [.apt(["libkissfft-dev"])]),
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .target(
            name: "WarbleAudio",
            dependencies: ["CSndFile", "CSoxr", "CKissFFT", "CEbur128"],
            swiftSettings: strict
        ),
        // Benchmark run by scripts/bench-audio.sh; no product, so it stays out of the product list.
        .executableTarget(name: "warble-audio-bench", dependencies: ["WarbleAudio"], swiftSettings: strict),

        // MARK: Text
        .target(name: "WarbleText", swiftSettings: strict),
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .target(name: "WarblePhonemes", dependencies: ["CEspeakNG", "WarbleText"], swiftSettings: strict),
        .executableTarget(name: "bench-tokenizer", dependencies: ["WarbleText"], path: "Sources/BenchTokenizer", swiftSettings: strict),

        // MARK: Vocabulary (no model backend: the services depend on this alone)
        .target(name: "WarbleSpeech", dependencies: ["WarbleAudio", "WarbleText"], swiftSettings: strict),

        // MARK: Models
        .systemLibrary(name: "CSystemZlib", providers: [.apt(["zlib1g-dev"])]),
        // Float kernels over a vocabulary of logits (max, sum of exponentials, top k), in C so that they vectorise.
        .target(name: "CVectorMath"),
        .target(name: "WarbleModels", dependencies: ["ONNXRuntime", "WarbleSpeech", "WarbleAudio", "WarbleText", "CSystemZlib", "CVectorMath"],
                swiftSettings: strict),

        // MARK: Engine
        // glibc's malloc_trim, declared in C (no pointers cross into Swift).
        .target(name: "CHeap"),
        // SHA-256 and MD5 for checking downloads and files: OpenSSL's libcrypto (Debian's build, SHA-NI where the CPU has it).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "WarbleEngine",
            dependencies: ["ONNXRuntime", "WarbleSpeech", "WarbleModels", "WarbleText", "CHeap", "CLibCrypto"],
            swiftSettings: strict
        ),

        // MARK: Server
        .target(
            name: "WarbleServer",
            dependencies: [
                "WarbleSpeech", "WarbleAudio", "WarbleText",
                // GET /v1/bench/report reads `warble bench report`'s report.json with its own types.
                "WarbleBenchReport",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The HTTP/1 channel, wrapped with the connection cap and read timeouts (GuardedHTTP1Channel).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // Warble Studio's page (`GET /`, `/studio/<file>`): HTML, CSS and JS compiled into the binary.
            resources: [.embedInCode("Studio")],
            swiftSettings: strict
        ),

        // MARK: Model downloads (the Hugging Face Hub's HTTP API over Foundation's URLSession: libcurl, which the
        // Swift runtime links anyway, so no HTTP and TLS stack is compiled into the warble command)
        .target(
            name: "WarbleHub",
            dependencies: ["WarbleEngine", "WarbleModels"],
            resources: [.copy("Catalogue/models.json"), .copy("Catalogue/defaults.json"), .copy("Catalogue/voice-aliases.json")],
            swiftSettings: strict
        ),

        // MARK: History (sessions in SQLite through GRDB, audio content-addressed under $WARBLE_HOME/history/;
        // export and import as ZIP archives through ZIPFoundation)
        .target(
            name: "WarbleHistory",
            dependencies: [
                "WarbleEngine", "WarbleText", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),

        // MARK: speech-dispatcher module
        .target(name: "WarbleSpeechd", dependencies: ["WarbleSpeech", "WarbleText"], swiftSettings: strict),
        // Links espeak-ng (GPL-3) through WarblePhonemes, like the warble command.
        .executableTarget(
            name: "sd_warble",
            dependencies: ["WarbleSpeechd", "WarbleEngine", "WarblePhonemes", "WarbleText"],
            swiftSettings: strict
        ),

        // MARK: Playback (PulseAudio, or PipeWire's PulseAudio server; Linux)
        .systemLibrary(name: "CPulseSimple", providers: [.apt(["libpulse-dev"])]),
        .target(name: "WarblePlayback", dependencies: [.target(name: "CPulseSimple", condition: .when(platforms: [.linux]))],
                swiftSettings: strict),

        // MARK: AAC (FFmpeg's libavcodec, LGPL-2.1+): optional, registered by the warble command
        .systemLibrary(name: "CAVCodec", providers: [.apt(["libavcodec-dev"])]),
        .target(name: "WarbleAAC", dependencies: ["CAVCodec", "WarbleAudio"], swiftSettings: strict),

        // `warble bench report`'s Markdown tables, SVG charts and README markers (Foundation only).
        .target(name: "WarbleBenchReport", swiftSettings: strict),

        // MARK: Executables
        .executableTarget(
            name: "warble",
            dependencies: [
                "WarbleAudio", "WarbleText", "WarblePhonemes", "WarbleSpeech", "WarbleEngine", "WarbleServer", "WarblePlayback", "WarbleAAC",
                "WarbleHub", "WarbleHistory", "WarbleBenchReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // MARK: Tests
        // What the tests need from outside the repository (Tests/Fixtures/generated/AREA, $WARBLE_HOME's models and
        // ONNX Runtime) as traits: a test that lacks it is skipped with how to get it, and the process counts the
        // skips when it ends; WARBLE_REQUIRE_FIXTURES=1 (scripts/test.sh, CI) fails them instead. ONNXRuntime only for
        // where it looks for its library (nothing is loaded).
        .target(name: "WarbleTestSupport", dependencies: ["ONNXRuntime"], path: "Tests/WarbleTestSupport", swiftSettings: testCode),
        // The server's tests send their requests over loopback sockets to the application on a free port (HTTP/1.1).
        .target(
            name: "WarbleHTTPTesting",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/WarbleHTTPTesting", swiftSettings: testCode
        ),
        .testTarget(name: "ONNXRuntimeTests", dependencies: ["ONNXRuntime", "CWarbleOperators", "WarbleTestSupport"], swiftSettings: testCode),
        .testTarget(name: "WarbleAudioTests", dependencies: ["WarbleAudio", "WarbleTestSupport"], swiftSettings: testCode),
        .testTarget(name: "WarbleAACTests", dependencies: ["WarbleAAC", "WarbleAudio"], swiftSettings: testCode),
        .testTarget(name: "WarbleTextTests", dependencies: ["WarbleText", "WarbleTestSupport"], swiftSettings: testCode),
        .testTarget(name: "WarblePhonemesTests", dependencies: ["WarblePhonemes", "WarbleTestSupport"], swiftSettings: testCode),
        .testTarget(name: "WarbleSpeechTests", dependencies: ["WarbleSpeech"], swiftSettings: testCode),
        .testTarget(name: "WarbleModelsTests", dependencies: ["WarbleModels", "WarbleSpeech", "WarbleTestSupport"], swiftSettings: testCode),
        .testTarget(name: "WarbleEngineTests", dependencies: ["WarbleEngine", "WarbleTestSupport"], swiftSettings: testCode),
        .testTarget(name: "WarbleBenchReportTests", dependencies: ["WarbleBenchReport"], swiftSettings: testCode),
        // Pulls from tools/hub/hub_server.py (the Hub imitation) and speaks with what was pulled.
        .testTarget(
            name: "WarbleHubTests",
            dependencies: ["WarbleHub", "WarbleEngine", "WarbleModels", "WarblePhonemes", "WarbleAudio", "WarbleTestSupport"],
            swiftSettings: testCode
        ),
        // Spawns python3 (its sqlite3 module, the same SQLite) as the concurrent writer and as the writer killed mid-transaction.
        .testTarget(name: "WarbleHistoryTests", dependencies: ["WarbleHistory", .product(name: "ZIPFoundation", package: "ZIPFoundation")], swiftSettings: testCode),
        .testTarget(name: "WarbleSpeechdTests", dependencies: ["WarbleSpeechd", "WarbleSpeech"], swiftSettings: testCode),
        // Real voices end to end (also through the server's routes, handed the engine as `warble serve`
        // does); links espeak-ng (GPL-3) through WarblePhonemes, like the warble command.
        .testTarget(
            name: "WarbleVoicesTests",
            dependencies: [
                "WarbleEngine", "WarblePhonemes", "WarbleServer", "WarbleTestSupport",
            ],
            swiftSettings: testCode
        ),
        .testTarget(
            name: "WarbleServerTests",
            dependencies: [
                "WarbleServer", "WarbleSpeech", "WarbleAudio", "WarbleText", "WarbleBenchReport",
                "WarbleHTTPTesting",
                // Bare TCP connections (RawConnection): half a request, a stall, a hang-up.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The drain tests run the server's ServiceGroup and trigger its graceful shutdown.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: testCode
        ),
    ],
    swiftLanguageModes: [.v6]
)
