// Times WarbleAudio's feature extraction and resampling on the inputs written by
// tools/audio/bench_reference.py; scripts/bench-audio.sh runs it beside the Python references.
// Usage: warble-audio-bench INPUT_DIR RUNS [PREFIX]   → one line per case:
//   "<name> <median wall ms> <median CPU ms>" (CPU: the process's CPU time, all threads; less disturbed
//   by other processes on a shared machine); with PREFIX, only the cases whose names start with it.
// Resampling runs with the default (the calling thread only) and, as "<name>_segments", in segments
// on every core (threads: 0).
// warble-audio-bench --soxr → libsoxr's version and the engine of each resampling case.
import Foundation
import WarbleAudio

let arguments = CommandLine.arguments
if arguments.count == 2 && arguments[1] == "--soxr" {
    print("libsoxr", StreamingResampler.libraryVersion)
    for (name, rate) in [("resample_44k_16k", 44100), ("resample_24k_16k", 24000)] {
        print(name, "engine", (try? StreamingResampler(inputRate: rate, outputRate: 16000).engine) ?? "?")
    }
    exit(0)
}
guard arguments.count == 3 || arguments.count == 4, let runs = Int(arguments[2]), runs > 0 else {
    FileHandle.standardError.write(Data("usage: warble-audio-bench INPUT_DIR RUNS [PREFIX]\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
let prefix = arguments.count == 4 ? arguments[3] : ""

func load(_ name: String) -> [Float] {
    guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else {
        FileHandle.standardError.write(Data("warble-audio-bench: cannot read \(name) in \(directory.path)\n".utf8))
        exit(1)
    }
    return data.withUnsafeBytes { raw in
        (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
    }
}

/// This process's CPU time in ms (all threads).
func processCPUMilliseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
}

/// Median wall and CPU time in ms over `runs` runs after one warm-up; `sink` keeps results alive.
func time(_ name: String, _ body: () throws -> Int) rethrows {
    guard name.hasPrefix(prefix) else { return }
    var sink = try body()
    var wall = [Double](), cpu = [Double]()
    let clock = ContinuousClock()
    for _ in 0..<runs {
        var result = 0
        let cpuStart = processCPUMilliseconds()
        let elapsed = try clock.measure { result = try body() }
        cpu.append(processCPUMilliseconds() - cpuStart)
        sink &+= result
        wall.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    wall.sort()
    cpu.sort()
    print(name, String(format: "%.3f", wall[wall.count / 2]), String(format: "%.3f", cpu[cpu.count / 2]), "# \(sink & 1)")
}

let x16 = load("x16.f32"), x24 = load("x24.f32"), x44 = load("x44.f32")
let stft = STFT(fftLength: 400, hopLength: 160, window: .hann, center: true)
let mel = MelSpectrogram(
    sampleRate: 16000, stft: stft,
    filterbank: MelFilterbank(sampleRate: 16000, fftLength: 400, melCount: 80), spectrum: .power)
let whisper = WhisperLogMel(melCount: 80)
let matcha = MelSpectrogram.matcha()
let fbank = KaldiFbank()
let hift = STFT(fftLength: 16, hopLength: 4, window: .hann, center: true)
let hiftSpectrum = hift(x24)

time("stft_16k_400_160") { stft(x16).frames }
time("mel_16k_80") { mel(x16).rows }
time("whisper_logmel_80") { whisper(x16).rows }
time("matcha_mel_24k") { matcha(x24).rows }
time("kaldi_fbank_80") { fbank(x16).rows }
time("istft_24k_16_4") { hift.inverse(hiftSpectrum, length: x24.count).count }
try time("resample_44k_16k") { try AudioBuffer(mono: x44, sampleRate: 44100).resampled(to: 16000).frameCount }
try time("resample_24k_16k") { try AudioBuffer(mono: x24, sampleRate: 24000).resampled(to: 16000).frameCount }
try time("resample_44k_16k_segments") {
    try AudioBuffer(mono: x44, sampleRate: 44100).resampled(to: 16000, threads: 0).frameCount
}
try time("resample_24k_16k_segments") {
    try AudioBuffer(mono: x24, sampleRate: 24000).resampled(to: 16000, threads: 0).frameCount
}
