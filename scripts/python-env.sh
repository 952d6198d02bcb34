#!/usr/bin/env bash
# Creates the repo's Python tool environment (.venv) from the hash-pinned lock files in tools/.
#
#   scripts/python-env.sh          everything: fixture/golden makers and benchmark references
#                                  (tools/requirements.lock)
#   scripts/python-env.sh --core   only what the set-up's converters need (tools/requirements-core.lock)
#
# The locks pin every package and dependency with the sha256 of its files, and pip installs with
# --require-hashes. They are made from the requirements.txt files by scripts/lock-python.sh, for
# CPython 3.11 (the wheels' ABI). Safe to run twice: the environment is installed again only when
# the lock it was installed from changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${WARBLE_VENV:-$root/.venv}"  # WARBLE_VENV: another place (to try the locks in a fresh venv)
stamps="$venv/.warble-stamps"
die() { printf 'warble: error: %s\n' "$*" >&2; exit 1; }

if [[ "${1:-}" == "--core" ]]; then lock="$root/tools/requirements-core.lock"; else lock="$root/tools/requirements.lock"; fi
[[ -f "$lock" ]] || die "$lock is missing: run scripts/lock-python.sh"

# The locks must have been made from the requirement files as they are now.
inputs=("$root"/tools/requirements.txt "$root"/tools/*/requirements.txt)
digest="$(cat "${inputs[@]}" | sha256sum | cut -d' ' -f1)"
grep -qx "# inputs-sha256: $digest" "$lock" \
    || die "${lock#"$root"/} is older than the requirements.txt files in tools/: run scripts/lock-python.sh"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "warble: creating Python tool environment in $venv" >&2
    python3 -m venv "$venv" || die "python3 -m venv failed (on Debian: apt-get install python3-venv)"
fi
"$venv/bin/python" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
    || die "$venv runs $("$venv/bin/python" --version 2>&1); the locked wheels are for Python 3.11 (remove $venv and run scripts/setup.sh again)"
mkdir -p "$stamps"

# A full install covers the core lock too (the same versions).
stamp="$stamps/$(basename "$lock")"
want="$(sha256sum "$lock" | cut -d' ' -f1)"
[[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && exit 0
if [[ "${1:-}" == "--core" && -f "$stamps/requirements.lock" \
      && "$(cat "$stamps/requirements.lock")" == "$(sha256sum "$root/tools/requirements.lock" | cut -d' ' -f1)" ]]; then
    exit 0
fi

echo "warble: installing the locked Python tools (${lock#"$root"/})" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock" \
    || die "pip could not install the locked tools (see above)"
echo "$want" > "$stamp"
