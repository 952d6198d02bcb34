#!/usr/bin/env bash
# Benchmarks WarbleAudio against the Python references on 60 s of audio, in the same run:
# STFT, mel, Whisper log-mel, Matcha mel, Kaldi fbank, iSTFT and libsoxr resampling.
#   scripts/bench-audio.sh [RUNS]    (default 7 runs per case per round; BENCH_ROUNDS=3 rounds)
# Prints each case's median time and the ratio python/swift (above 1: Swift faster).
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

# The machine is shared and noisy: alternate the two sides for several rounds and take, per case, the
# median over rounds of each round's median.
rounds="${BENCH_ROUNDS:-3}"
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
    cases = {}
    for line in text.strip().splitlines():
        if line.strip():
            name, ms = line.split()[:2]
            cases.setdefault(name, []).append(float(ms))
    return {name: statistics.median(v) for name, v in cases.items()}
swift, python = parse(sys.argv[1]), parse(sys.argv[2])
print(f"{'case (60 s of audio)':<22}{'Swift ms':>10}{'Python ms':>11}{'python/swift':>14}")
for name in swift:
    s, p = swift[name], python.get(name, float("nan"))
    print(f"{name:<22}{s:>10.2f}{p:>11.2f}{p / s:>13.2f}x")
PY
