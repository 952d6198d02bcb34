// swift-tools-version: 6.1
// Fuzz targets for Warble, kept out of the main package so its build never sees fuzzer flags.
// Build and run with scripts/fuzz-wav.sh (adds -sanitize=fuzzer,address to every module).
import PackageDescription

let package = Package(
    name: "WarbleFuzz",
    dependencies: [.package(name: "Warble", path: "..")],
    targets: [
        .executableTarget(
            name: "fuzz-wav",
            dependencies: [.product(name: "Warble", package: "Warble")],
            // libFuzzer supplies main(); the target only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // WarblePhonemes is the smallest product that carries WarbleText (no audio or ONNX code to build).
        .executableTarget(
            name: "fuzz-ssml",
            dependencies: [.product(name: "WarblePhonemes", package: "Warble")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
