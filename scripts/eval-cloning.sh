#!/usr/bin/env bash
# The cloning table of the README: Kokoro voices found from clips of speakers the search never saw
# (Debian's flite voices and the installed Piper voice), each scored on held-out sentences by speaker
# similarity (next to the best stock Kokoro voice) and by word error rate through Whisper.
#
#   scripts/eval-cloning.sh [--budget 10m | --candidates N] [SPEAKER...]   (default: flite:slt flite:rms flite:awb warble:en_US-joe-medium)
#
# Installs flite (Debian) if missing; builds warble (release) unless WARBLE_BIN names one. Adds voices eval-* to $WARBLE_HOME's library.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
limit=(--budget 10m)
if [[ "${1:-}" == "--budget" || "${1:-}" == "--candidates" ]]; then limit=("$1" "$2"); shift 2; fi
speakers=("$@")
((${#speakers[@]})) || speakers=(flite:slt flite:rms flite:awb warble:en_US-joe-medium)
if ! command -v flite >/dev/null; then
    say "installing flite (Debian 12: flite 2.2-5)"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends flite=2.2-5 >/dev/null \
        || die "could not install flite (apt-get install flite)"
fi
"$warble_root/scripts/python-env.sh"
scratch="$warble_root/.build-ttsbench"
warble="${WARBLE_BIN:-}"
if [[ -z "$warble" ]]; then
    say "building warble (release)"
    swift build -c release --scratch-path "$scratch" --product warble >&2
    warble="$scratch/release/warble"
fi
"$warble_root/.venv/bin/python" tools/voices/eval_cloning.py --warble "$warble" --out "$scratch/cloning" \
    "${limit[@]}" "${speakers[@]}"
