#!/usr/bin/env bash
# Browser tests of Warble Studio, the page `warble serve` serves at `/` (Docs/Studio.md): headless Debian
# chromium driven by Playwright (tools/studio/run.py runs tools/studio/test_*.py against one server with an API
# key and --history, a temporary WARBLE_HOME linking the installed models, and a fake microphone playing a
# fixture clip). Screenshots of each screen go to $WARBLE_STUDIO_SHOTS (default .build-studio/shots).
# Needs the set-up's models (scripts/setup.sh --dev, which installs chromium), the venv (scripts/python-env.sh)
# and the fixtures (tools/fixtures/make_all.py; the microphone plays asr/en_fox.wav).
#
#   scripts/test-studio.sh [test_speak test_history ...]   (default: all)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

"$warble_root/scripts/python-env.sh" >/dev/null
tools/studio/install_browser.sh
[[ -x "${WARBLE_CHROMIUM:-/usr/bin/chromium}" ]] || die "no chromium: run scripts/setup.sh --dev (apt-get install chromium)"
export WARBLE_BIN="${WARBLE_BIN:-$(test_bin)/warble}"
export WARBLE_STUDIO_SHOTS="${WARBLE_STUDIO_SHOTS:-$warble_root/.build-studio/shots}"
.venv/bin/python -m tools.studio.run "$@"
