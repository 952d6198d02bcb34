#!/usr/bin/env bash
# Creates the repo's Python tool environment (.venv) from the pinned requirement files in tools/.
#
#   scripts/python-env.sh          everything: fixture/golden makers and benchmark references
#   scripts/python-env.sh --core   only tools/requirements.txt (what the set-up's converters need)
#
# Safe to run twice: a requirements file is installed again only when it changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
stamps="$venv/.warble-stamps"

files=("$root/tools/requirements.txt")
if [[ "${1:-}" != "--core" ]]; then
    for f in "$root"/tools/*/requirements.txt; do [[ -f "$f" ]] && files+=("$f"); done
fi

if [[ ! -x "$venv/bin/python" ]]; then
    echo "warble: creating Python tool environment in $venv" >&2
    python3 -m venv "$venv" || {
        echo "warble: error: python3 -m venv failed (on Debian: apt-get install python3-venv)" >&2
        exit 1
    }
fi
mkdir -p "$stamps"

todo=()
for f in "${files[@]}"; do
    stamp="$stamps/$(echo "${f#"$root"/}" | tr '/' '_')"
    want="$(sha256sum "$f" | cut -d' ' -f1)"
    [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] || todo+=("$f")
done
((${#todo[@]})) || exit 0

echo "warble: installing pinned Python tools (${todo[*]#"$root"/})" >&2
args=()
for f in "${files[@]}"; do args+=(-r "$f"); done
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${args[@]}" || {
    echo "warble: error: pip could not install the pinned tools (see above)" >&2
    exit 1
}
for f in "${todo[@]}"; do
    sha256sum "$f" | cut -d' ' -f1 > "$stamps/$(echo "${f#"$root"/}" | tr '/' '_')"
done
