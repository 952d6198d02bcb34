#!/usr/bin/env bash
# End-to-end test of `warble serve`: builds warble, starts the server on a free loopback port with an
# API key and --history, runs tools/server/e2e.py (OpenAI's Python client, curl, a raw socket that disconnects),
# which ends by sending SIGTERM during a request; then checks the server exited cleanly. Then the model routes
# (scripts/test-server-models.sh: pull from the Hub imitation, list, remove; about 12 s).
# Needs the default voices (scripts/setup.sh), the Python tools (scripts/python-env.sh) and the
# fixtures of tools/cosyvoice3, tools/chatterbox and tools/neutts (scripts/test.sh makes them), installed
# beside the models as `cosyvoice3`, `chatterbox-turbo`, `neutts-nano` and `neucodec`.
#
#   scripts/test-server-e2e.sh [--release]   (default: the test build; --release: a plain release build in .build)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"


"$warble_root/scripts/python-env.sh" >/dev/null
command -v curl >/dev/null || die "curl is needed (apt-get install curl)"

if [[ "${1:-}" == "--release" ]]; then
    say "building warble (release)"
    swift build -c release --product warble >/dev/null || die "the build failed"
    warble="$(swift build -c release --show-bin-path)/warble"
else
    warble="$(test_bin)/warble"  # the test build's (built when missing)
fi

# The server's WARBLE_HOME: the installed models, the seed families' synthetic graphs beside them, and a
# voice library of its own (e2e.py clones voices into it).
server_home="$(mktemp -d)"
models_with_seed_fixtures "$server_home/models"
[[ -d "$WARBLE_HOME/lib" ]] && ln -s "$WARBLE_HOME/lib" "$server_home/lib"

log="$(mktemp)"
key="e2e-$RANDOM$RANDOM"
WARBLE_HOME="$server_home" WARBLE_API_KEY="$key" "$warble" serve --host 127.0.0.1 --port 0 --log-level notice --history >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; rm -rf "$log" "$server_home"; }
trap cleanup EXIT

port=""
for _ in $(seq 1 600); do
    port="$(sed -n 's|^warble: serving on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")"
    [[ -n "$port" ]] && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; die "warble serve exited before listening"; }
    sleep 0.1
done
[[ -n "$port" ]] || { cat "$log" >&2; die "warble serve did not start listening within 60 s"; }
say "warble serve listening on 127.0.0.1:$port (pid $pid)"

report="$(mktemp)"
trap 'cleanup; rm -f "$report"' EXIT
.venv/bin/python tools/server/e2e.py --base-url "http://127.0.0.1:$port/v1" --api-key "$key" --pid "$pid" | tee "$report" || true
# Its counts ("e2e.py: N passed, N failed"); none at all means it stopped early, which is a failure.
read -r passed failed < <(sed -n 's/^e2e.py: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$report") || true
if [[ -z "${passed:-}" ]]; then
    echo "FAIL e2e.py ended before its summary (see above)"; passed=0; failed=1
fi

# e2e.py sent SIGTERM: the server must stop by itself, with exit status 0.
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL the server did not stop within 10 s of SIGTERM"; failed=$((failed + 1))
elif wait "$pid"; then
    echo "ok   the server stopped cleanly after SIGTERM"; passed=$((passed + 1))
else
    echo "FAIL the server exited with status $? after SIGTERM"; failed=$((failed + 1))
fi
((failed == 0)) || { echo "server: $passed passed, $failed failed"; echo "--- server log ---" >&2; cat "$log" >&2; die "server end-to-end test failed"; }

# The model routes (pull from the Hub imitation, remove): a server of their own (scripts/test-server-models.sh).
models_report="$(mktemp)"
trap 'cleanup; rm -f "$report" "$models_report"' EXIT
"$warble_root/scripts/test-server-models.sh" "$warble" | tee "$models_report" || true
read -r models_passed models_failed < <(sed -n 's/^e2e_models.py: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$models_report") || true
[[ -n "${models_passed:-}" ]] || { echo "FAIL e2e_models.py ended before its summary (see above)"; models_passed=0; models_failed=1; }
passed=$((passed + models_passed)); failed=$((failed + models_failed))
echo "server: $passed passed, $failed failed"
((failed == 0)) || die "server end-to-end test failed"
