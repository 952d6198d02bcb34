#!/usr/bin/env bash
# Installs sherpa-onnx 2.0.1 (the reference engine of the SenseVoice and Parakeet goldens) into the project
# venv from the hash-pinned tools/sensevoice/requirements-parity.txt (--require-hashes --no-deps: nothing
# else in the venv moves). Needs the venv of scripts/python-env.sh. Safe to run twice.
# Cost: two wheels from PyPI (15 MB), a few seconds.
#
#   tools/sensevoice/install_parity.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../install_parity_lib.sh"
install_parity sherpa-onnx "$here/requirements-parity.txt" 'import numpy, onnx, onnxruntime, kaldi_native_fbank' \
    'import sherpa_onnx; sherpa_onnx.OfflineRecognizer'
