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
source "$here/../install_parity_lib.sh"
reqs="$here/requirements-parity.txt"
wheels="${WARBLE_TORCH_WHEELS:-/opt/wheels}"
torch_version="$(sed -n 's/^torch==\([^ ]*\).*/\1/p' "$reqs")"
if compgen -G "$wheels/torch-${torch_version}-cp311-*.whl" > /dev/null; then
    source_args=(--find-links "$wheels")
else
    source_args=(--extra-index-url "${WARBLE_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}")
fi
install_parity "torch $torch_version (CPU), transformers and neucodec" "$reqs" 'import huggingface_hub, tokenizers, onnxruntime' \
    'import torch, transformers, einops, einx; import vector_quantize_pytorch; assert float(torch.ones(2).sum()) == 2.0' \
    "${source_args[@]}"
