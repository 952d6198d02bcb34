#!/usr/bin/env bash
# Installs the pinned ONNX Runtime C library from the official PyPI wheel into $WARBLE_HOME/lib.
# The wheel is checked against its sha256 (scripts/pins.txt); quiet when already installed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

read -r version sha _ <<<"$(pin onnxruntime)"
lib_dir="$WARBLE_HOME/lib"
lib="$lib_dir/libonnxruntime.so.$version"
stamp="$lib_dir/onnxruntime.pin"

if [[ -f "$lib" && -f "$stamp" && "$(cat "$stamp")" == "$version $sha" ]]; then
    exit 0
fi

wheel="$(fetch_wheel onnxruntime)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 - "$wheel" "$tmp" <<'PY' || die "could not unpack the ONNX Runtime library from $wheel"
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith("onnxruntime/capi/libonnxruntime.so")]
    if not names:
        sys.exit("no libonnxruntime.so in the wheel")
    for n in names:
        z.extract(n, out)
PY
mkdir -p "$lib_dir"
src="$(find "$tmp/onnxruntime/capi" -name "libonnxruntime.so.*" -type f | head -n1)"
[[ -n "$src" ]] || die "the wheel has no versioned libonnxruntime.so.*"
install -m 0644 "$src" "$lib.tmp"
mv -f "$lib.tmp" "$lib"
ln -sf "$(basename "$lib")" "$lib_dir/libonnxruntime.so"
echo "$version $sha" > "$stamp"
say "installed ONNX Runtime $version into $lib_dir"
