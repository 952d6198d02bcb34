#!/usr/bin/env bash
# Multi-host test of `warble serve` on this machine: three replicas, each in its own network namespace
# (ip netns, a veth pair each), behind HAProxy (health checks on /health/ready) and scraped by Prometheus
# (Debian's packages). Under a steady load of speech and transcription requests (OpenAI's Python client,
# four threads), one replica is killed (SIGKILL) and another drained (SIGTERM); tools/server/multihost.py
# checks that only the requests in flight on the killed one failed, none on the drained one, that HAProxy
# stopped routing to both and that Prometheus's `up` and request counters show it.
# Needs root (network namespaces), haproxy and prometheus (scripts/setup.sh --dev installs them), the
# default voice and whisper-tiny.en (scripts/setup.sh --all) and the Python tools (scripts/python-env.sh).
#
#   scripts/test-multihost.sh   (the test build's warble, or $WARBLE_BIN when set)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

[[ $(id -u) == 0 ]] || die "the multi-host test makes network namespaces: run it as root"
install_debian_packages haproxy prometheus iproute2
"$warble_root/scripts/python-env.sh" >/dev/null
for model in piper-en_US-joe-medium whisper-tiny.en; do
    [[ -f "$WARBLE_HOME/models/$model/manifest.json" ]] \
        || die "$model is not installed in $WARBLE_HOME (scripts/setup.sh --all installs it)"
done

if [[ -n "${WARBLE_BIN:-}" && -x "$WARBLE_BIN" ]]; then
    warble="$WARBLE_BIN"
else
    warble="$(test_bin)/warble"  # the test build's (built when missing)
fi

.venv/bin/python tools/server/multihost.py --warble "$warble" --home "$WARBLE_HOME" "$@"
