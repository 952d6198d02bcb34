#!/usr/bin/env bash
# Hostile inputs through every entry point (tools/hardening/hostile.py): SSML breaks, rates and volumes
# written as huge, NaN or negative numbers, deep nesting, huge words and numbers, XML prologs, and audio
# uploads that lie about their rate or length, through `warble say`, `warble serve` (alive after each,
# memory back near idle after a burst) and sd_warble over its module protocol. Each must give a clear
# error or audio that grows with the text's length only. Then tools/hardening/hints.py: every fix hint
# Warble prints names a command that exists and works. Each prints "N passed, N failed".
#   scripts/test-hostile-inputs.sh [cli|server|module ...]   (default: all three)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
bin="$(test_bin)"  # the test build's warble and sd_warble (built when missing)
only=()
for part in "$@"; do only+=(--only "$part"); done
status=0
python3 tools/hardening/hostile.py --warble "$bin/warble" --sd-warble "$bin/sd_warble" "${only[@]}" || status=$?
# Every fix hint printed names a command that exists and works.
python3 tools/hardening/hints.py --warble "$bin/warble" || status=$?
exit "$status"
