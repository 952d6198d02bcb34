#!/usr/bin/env bash
# Installs Playwright's Python driver into the project venv from the hash-pinned
# tools/studio/requirements-browser.txt (--require-hashes --no-deps: nothing else in the venv moves), for the
# browser tests of Warble Studio (scripts/test-studio.sh). The browser itself is Debian's chromium
# (scripts/setup.sh --dev installs it). Safe to run twice. Cost: a 48 MB wheel from PyPI, a few seconds.
#
#   tools/studio/install_browser.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../install_parity_lib.sh"
install_parity "Playwright (Python)" "$here/requirements-browser.txt" 'import typing_extensions' \
    'from playwright.sync_api import sync_playwright'
