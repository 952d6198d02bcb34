# Sourced by tools/*/install_parity.sh: installs a test-only Python reference into the project venv from a
# hash-pinned requirements-parity.txt (--require-hashes --no-deps: nothing else in the venv moves), once per
# content of that file (a stamp in the venv). Needs the venv of scripts/python-env.sh.
#
#   install_parity NAME REQS NEEDED_IMPORTS CHECK [PIP_ARGS...]
#     NAME            what the messages call it ("sherpa-onnx")
#     REQS            the requirements-parity.txt
#     NEEDED_IMPORTS  Python that must import before (from scripts/python-env.sh's lock)
#     CHECK           Python that must run after the install
set -euo pipefail
parity_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${WARBLE_VENV:-$parity_root/.venv}"
die() { printf 'warble: error: %s\n' "$*" >&2; exit 1; }

install_parity() {
    local name="$1" reqs="$2" needed="$3" check="$4"
    shift 4
    [[ -x "$venv/bin/python" ]] || die "$venv has no python: run scripts/python-env.sh first"
    "$venv/bin/python" -c "$needed" 2>/dev/null \
        || die "$venv lacks what $name needs from the tool lock ($needed): run scripts/python-env.sh"
    local stamps="$venv/.warble-stamps"
    local stamp="$stamps/$(basename "$(dirname "$reqs")")-requirements-parity.txt"
    local want
    want="$(sha256sum "$reqs" | cut -d' ' -f1)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        echo "warble: $name already installed in $venv" >&2
        return 0
    fi
    echo "warble: installing $name into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps "$@" -r "$reqs" \
        || die "pip could not install $reqs (see above)"
    "$venv/bin/python" -c "$check" || die "$name installed but does not import"
    mkdir -p "$stamps"
    echo "$want" > "$stamp"
    echo "warble: $name installed in $venv" >&2
}
