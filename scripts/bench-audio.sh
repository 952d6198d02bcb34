#!/usr/bin/env bash
# Benchmarks WarbleAudio against the Python references on 60 s of audio, in the same run:
# STFT, mel, Whisper log-mel, Matcha mel, Kaldi fbank, iSTFT and libsoxr resampling.
#   scripts/bench-audio.sh [RUNS]    (default 7 runs per case per round; BENCH_ROUNDS=5 rounds)
# Prints each case's median wall time and the ratio python/swift (above 1: Swift faster), and the same
# ratio on CPU time (each process's own, all threads: less disturbed when other processes share the
# cores). Both sides run one thread, except "<case>_segments": Swift resampling in segments on every
# core (threads: 0), against the same Python figure. Resampling: both call libsoxr 0.1.3 (Debian's for
# Swift, python-soxr's bundled build for Python); the engine each picked at run time is printed first.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-7}"
"$warble_root/scripts/python-env.sh"
python="$warble_root/.venv/bin/python"
work="$warble_root/.build-audio/bench-inputs"
"$python" "$warble_root/tools/audio/bench_reference.py" inputs "$work"

say "building warble-audio-bench (release)"
swift build --package-path "$warble_root" --scratch-path "$warble_root/.build-audio" -c release \
    --product warble-audio-bench >&2
bin="$(swift build --package-path "$warble_root" --scratch-path "$warble_root/.build-audio" -c release --show-bin-path)"

say "libsoxr: Swift (Debian) and Python (python-soxr's own build), engine per resampling case"
paste -d' ' <("$bin/warble-audio-bench" --soxr | sed 's/^/swift: /') \
    <("$python" "$warble_root/tools/audio/bench_reference.py" soxr | sed 's/^/| python: /')

# The machine is shared and noisy: alternate the two sides for several rounds and take, per case, the
# median over rounds of each round's median.
rounds="${BENCH_ROUNDS:-5}"
swift_all="" python_all=""
for round in $(seq "$rounds"); do
    say "round $round/$rounds: Swift, then Python ($runs runs per case each)"
    swift_all+="$("$bin/warble-audio-bench" "$work" "$runs")"$'\n'
    # OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are set on some machines for old OpenBLAS builds and slow
    # a current numpy: unset here only, for the reference timings. One BLAS thread, as Swift uses one:
    # on a shared two-core machine spinning BLAS threads only add noise.
    python_all+="$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$python" "$warble_root/tools/audio/bench_reference.py" time "$work" "$runs")"$'\n'
done

"$python" - "$swift_all" "$python_all" <<'PY'
import statistics, sys
def parse(text):
    wall, cpu = {}, {}
    for line in text.strip().splitlines():
        if line.strip():
            name, ms, cpu_ms = line.split()[:3]
            wall.setdefault(name, []).append(float(ms))
            cpu.setdefault(name, []).append(float(cpu_ms))
    median = lambda cases: {name: statistics.median(v) for name, v in cases.items()}
    return median(wall), median(cpu)
(swift, swift_cpu), (python, python_cpu) = parse(sys.argv[1]), parse(sys.argv[2])
nan = float("nan")
print(f"{'case (60 s of audio)':<27}{'Swift ms':>10}{'Python ms':>11}{'python/swift':>14}{'CPU python/swift':>18}")
for name in swift:
    reference = name.removesuffix("_segments")  # python-soxr has one way: one thread
    s, p = swift[name], python.get(reference, nan)
    cpu_ratio = python_cpu.get(reference, nan) / swift_cpu[name]
    print(f"{name:<27}{s:>10.2f}{p:>11.2f}{p / s:>13.2f}x{cpu_ratio:>17.2f}x")
PY
