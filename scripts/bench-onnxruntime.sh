#!/usr/bin/env bash
# Per-run overhead of ONNX Runtime on a tiny model: the Swift binding (`warble bench onnx`) against
# Python onnxruntime of the same version, measured in the same run, alternating three rounds.
# Prints each side's median microseconds per run and the Swift/Python ratio (below 1: Swift faster).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

"$warble_root/scripts/setup.sh" --dev
fixtures="$warble_root/Tests/Fixtures/generated/onnx"
.venv/bin/python tools/onnx/make_fixtures.py "$fixtures" >/dev/null
swift build -c release --product warble >/dev/null
warble="$(swift build -c release --show-bin-path)/warble"
model="$fixtures/tiny_linear.onnx"

# The library Python's onnxruntime bundles must be the same version as ours.
py_version="$(.venv/bin/python -c 'import onnxruntime; print(onnxruntime.__version__)')"
read -r our_version _ <<<"$(pin onnxruntime)"
[[ "$py_version" == "$our_version" ]] || die "Python onnxruntime is $py_version, Warble pins $our_version"

swift_times=(); python_times=()
for round in 1 2 3; do
    s="$("$warble" bench onnx "$model" --runs 20000 --repeats 5)"
    p="$(.venv/bin/python tools/bench/onnx_overhead.py "$model" --runs 20000 --repeats 5)"
    swift_times+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["median_us_per_run"])' "$s")")
    python_times+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["median_us_per_run"])' "$p")")
done
python3 - "${swift_times[*]}" "${python_times[*]}" "$our_version" <<'PY'
import statistics, sys
swift = [float(x) for x in sys.argv[1].split()]
python = [float(x) for x in sys.argv[2].split()]
s, p = statistics.median(swift), statistics.median(python)
print(f"ONNX Runtime {sys.argv[3]}, tiny_linear.onnx (Gemm 1x16 @ 16x16), 1 thread, median of 3 rounds x 5 x 20,000 runs")
print(f"  swift   {s:8.2f} us/run   rounds: {', '.join(f'{x:.2f}' for x in swift)}")
print(f"  python  {p:8.2f} us/run   rounds: {', '.join(f'{x:.2f}' for x in python)}")
print(f"  ratio swift/python = {s / p:.3f}  ({'Swift faster' if s < p else 'Swift SLOWER'})")
PY
