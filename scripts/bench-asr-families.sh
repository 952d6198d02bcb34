#!/usr/bin/env bash
# Warble against sherpa-onnx (the reference engine, tools/sensevoice/install_parity.sh) on speech recognition graphs of
# the real sizes with random weights made on the fly (the real weights cannot be had here): SenseVoice Small
# (SENSEVOICE_LAYERS residual layers, 43 by default ≈ 233 M parameters; f32 and, with BENCH_INT8=1, int8) and Parakeet TDT 0.6B (real widths; PARAKEET_LAYERS residual
# encoder layers, 576 by default ≈ 0.6 B parameters; int8 too with BENCH_INT8=1). Prints, per graph, seconds per second of audio for both,
# their ratio, and Warble's time outside ONNX Runtime (front end, decoding, engine); checks both give the same text.
#   scripts/bench-asr-families.sh [THREADS]         (default 2; BENCH_ROUNDS=3 runs per clip)
# A quick run that only shows it works (small graphs, one round; figures meaningless), on a warble already built:
#   WARBLE_BENCH_BINARY=.build/release/warble SENSEVOICE_LAYERS=2 PARAKEET_LAYERS=4 BENCH_ROUNDS=1 scripts/bench-asr-families.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
threads="${1:-2}"
"$warble_root/scripts/python-env.sh"
"$warble_root/tools/sensevoice/install_parity.sh"
python="$warble_root/.venv/bin/python"
warble="$(release_warble "$warble_root/.build-asr")"
work="$warble_root/.build-asr/bench-asr-families"
mkdir -p "$work"
"$python" "$warble_root/tools/sensevoice/bench.py" "$warble" --work "$work" --threads "$threads" --runs "${BENCH_ROUNDS:-3}" \
    --layers "${SENSEVOICE_LAYERS:-43}"
if [[ "${BENCH_INT8:-0}" == 1 ]]; then
    "$python" "$warble_root/tools/sensevoice/bench.py" "$warble" --work "$work" --threads "$threads" --runs "${BENCH_ROUNDS:-3}" \
        --layers "${SENSEVOICE_LAYERS:-43}" --int8
fi
"$python" "$warble_root/tools/parakeet/bench.py" "$warble" --work "$work" --threads "$threads" --runs "${BENCH_ROUNDS:-3}" \
    --encoder-layers "${PARAKEET_LAYERS:-576}"
if [[ "${BENCH_INT8:-0}" == 1 ]]; then
    "$python" "$warble_root/tools/parakeet/bench.py" "$warble" --work "$work" --threads "$threads" --runs "${BENCH_ROUNDS:-3}" \
        --encoder-layers "${PARAKEET_LAYERS:-576}" --int8
fi
