#!/usr/bin/env bash
# Installs sherpa-onnx 2.0.1 (the reference engine of the SenseVoice and Parakeet goldens) into the project
# venv from the hash-pinned tools/sensevoice/requirements-parity.txt (--require-hashes --no-deps: nothing
# else in the venv moves). Needs the venv of scripts/python-env.sh. Safe to run twice.
# Cost: two wheels from PyPI (15 MB), a few seconds.
#
#   tools/sensevoice/install_parity.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${WARBLE_VENV:-$root/.venv}"
reqs="$here/requirements-parity.txt"
die() { printf 'warble: error: %s\n' "$*" >&2; exit 1; }

[[ -x "$venv/bin/python" ]] || die "$venv has no python: run scripts/python-env.sh first"
"$venv/bin/python" -c 'import numpy, onnx, onnxruntime, kaldi_native_fbank' 2>/dev/null \
    || die "$venv lacks numpy/onnx/onnxruntime/kaldi-native-fbank: run scripts/python-env.sh"
stamps="$venv/.warble-stamps"
stamp="$stamps/sensevoice-requirements-parity.txt"
want="$(sha256sum "$reqs" | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "warble: sherpa-onnx already installed in $venv" >&2
    exit 0
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r "$reqs" \
    || die "pip could not install $reqs (see above)"
"$venv/bin/python" -c 'import sherpa_onnx; sherpa_onnx.OfflineRecognizer' \
    || die "sherpa-onnx installed but does not import"
mkdir -p "$stamps"
echo "$want" > "$stamp"
echo "warble: sherpa-onnx installed in $venv" >&2
