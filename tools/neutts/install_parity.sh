#!/usr/bin/env bash
# Installs PyTorch (CPU) + transformers (+ neucodec and its quantizer, for the encoder export's proof) into the
# project venv for tools/neutts/test_convert.py and make_fixtures.py, from
# the hash-pinned tools/neutts/requirements-parity.txt (--require-hashes --no-deps: nothing else in
# the venv moves). Needs the venv of scripts/python-env.sh (the full lock: huggingface-hub,
# tokenizers). Safe to run twice: does nothing when the same pins are already installed.
#
#   tools/neutts/install_parity.sh
#
# The torch wheel is the CPU build, which PyPI does not carry: it is taken from a local wheel
# directory ($WARBLE_TORCH_WHEELS, default /opt/wheels) when it holds it, otherwise from PyTorch's
# CPU index ($WARBLE_TORCH_INDEX, default https://download.pytorch.org/whl/cpu). The hashes pin the bytes
# either way. Cost measured on the 2-core dev box: 187 MB torch wheel + 23 MB others, ~1 min to
# install, 0.8 GB on disk.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${WARBLE_VENV:-$root/.venv}"
reqs="$here/requirements-parity.txt"
die() { printf 'warble: error: %s\n' "$*" >&2; exit 1; }

[[ -x "$venv/bin/python" ]] || die "$venv has no python: run scripts/python-env.sh first"
"$venv/bin/python" -c 'import huggingface_hub, tokenizers, onnxruntime' 2>/dev/null \
    || die "$venv lacks the full tool lock (huggingface_hub, tokenizers, onnxruntime): run scripts/python-env.sh"
stamps="$venv/.warble-stamps"
stamp="$stamps/neutts-requirements-parity.txt"
want="$(sha256sum "$reqs" | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "warble: parity tools already installed in $venv" >&2
    exit 0
fi

wheels="${WARBLE_TORCH_WHEELS:-/opt/wheels}"
torch_version="$(sed -n 's/^torch==\([^ ]*\).*/\1/p' "$reqs")"
source_args=()
if compgen -G "$wheels/torch-${torch_version}-cp311-*.whl" > /dev/null; then
    source_args=(--find-links "$wheels")
else
    source_args=(--extra-index-url "${WARBLE_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}")
fi
echo "warble: installing torch $torch_version (CPU) + transformers into $venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
    "${source_args[@]}" -r "$reqs" || die "pip could not install $reqs (see above)"
"$venv/bin/python" -c 'import torch, transformers, einops, einx; import vector_quantize_pytorch; assert float(torch.ones(2).sum()) == 2.0' \
    || die "torch/transformers installed but do not import"
mkdir -p "$stamps"
echo "$want" > "$stamp"
echo "warble: parity tools installed (torch $torch_version, transformers $(sed -n 's/^transformers==\([^ ]*\).*/\1/p' "$reqs"))" >&2
