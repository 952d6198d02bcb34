#!/usr/bin/env bash
# RTF and peak memory of `warble transcribe` (release build) against faster-whisper on the same
# model, threads and 3-minute audio, in one run: f32 weights vs faster-whisper float32 and the int8
# variant (ORT dynamic quantisation, MODEL-int8) vs faster-whisper int8, alternating all four.
#   scripts/bench-transcribe.sh [MODEL] [THREADS]     (default whisper-tiny.en, 2)
#   BENCH_ROUNDS=3 (rounds), BENCH_VARIANTS=f32,int8 (or one of them)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
model="${1:-whisper-tiny.en}"
threads="${2:-2}"
"$warble_root/scripts/python-env.sh"
python="$warble_root/.venv/bin/python"
if [[ ",${BENCH_VARIANTS:-f32,int8}," == *,int8,* ]]; then
    "$warble_root/tools/whisper/install.sh" "$model-int8"
else
    "$warble_root/tools/whisper/install.sh" "$model"
fi
warble="$(release_warble "$warble_root/.build-asr")"
work="$warble_root/.build-asr/bench-inputs"
mkdir -p "$work"
"$python" "$warble_root/tools/asr/bench_transcribe.py" "$warble" "$model" --threads "$threads" \
    --rounds "${BENCH_ROUNDS:-3}" --variants "${BENCH_VARIANTS:-f32,int8}" --work "$work"
