#!/usr/bin/env bash
# Creates the repo's Python tool environment (.venv) from the pinned requirement files in tools/.
# Used for fixture/golden makers, converters and benchmark references. Safe to run twice:
# it only installs when a requirements file changed since the last run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.requirements.sha256"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "warble: creating Python tool environment in $venv" >&2
    python3 -m venv "$venv"
fi

files=("$root"/tools/requirements.txt "$root"/tools/*/requirements.txt)
existing=()
for f in "${files[@]}"; do [[ -f "$f" ]] && existing+=("$f"); done
want="$(cat "${existing[@]}" | sha256sum | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi
echo "warble: installing pinned Python tools (${#existing[@]} requirement files)" >&2
args=()
for f in "${existing[@]}"; do args+=(-r "$f"); done
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${args[@]}"
echo "$want" > "$stamp"
