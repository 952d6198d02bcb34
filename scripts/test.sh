#!/usr/bin/env bash
# Sets up everything the tests need and runs them all:
#   system packages, ONNX Runtime, every installable model (scripts/setup.sh --dev), the pinned Python
#   references, the fixtures and goldens they make (tools/*/make_fixtures.py, once per content hash of their
#   makers: tools/fixtures/make_all.py), one build shared by every step (release with testability, in
#   .build-test; warnings are errors), the unit tests (in two processes side by side, then the tests that
#   read the process's memory alone), the end-to-end scripts (the warble command, real services) and the
#   fuzz targets.
# Safe to run twice. Extra arguments go to `swift test` alone (e.g. --filter ONNXRuntimeTests), and then
# nothing else runs. Prints a table of its steps' times at the end ($WARBLE_HOME/cache/timings-test.tsv).
# scripts/test-long.sh runs what is too long for CI.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
timings_begin test

step "set-up (scripts/setup.sh --dev)" "$warble_root/scripts/setup.sh" --dev

# The fixtures (Python, mostly one core) are made while the tests build (Swift, both cores), each
# writing its own log; the build's warnings are checked once both are done.
build_log="$WARBLE_HOME/cache/build-tests.log"
fixtures_log="$WARBLE_HOME/cache/fixtures.log"
build_tests() { swift build "${test_build[@]}" --build-tests >"$build_log" 2>&1; }
fixtures_and_build() {
    say "making test fixtures (tools/fixtures/make_all.py) while the tests build (swift build ${test_build[*]} --build-tests)"
    .venv/bin/python tools/fixtures/make_all.py >"$fixtures_log" 2>&1 &
    local fixtures_pid=$! build_status=0 fixtures_status=0
    build_tests || build_status=$?
    wait "$fixtures_pid" || fixtures_status=$?
    sed 's/^/  /' "$fixtures_log" >&2
    if [[ $build_status != 0 ]]; then grep -E "error:" "$build_log" | head -40 >&2; die "the build failed (the whole log: $build_log)"; fi
    [[ $fixtures_status == 0 ]] || die "making the fixtures failed (see above; the whole log: $fixtures_log)"
}
step "the fixtures' order: readers after what they read (tools/fixtures/test_make_all.py)" bash -c \
    'python3 tools/fixtures/test_make_all.py >/dev/null || { echo "warble: error: tools/fixtures/make_all.py failed its checks (run tools/fixtures/test_make_all.py)" >&2; exit 1; }'

step "fixtures, and the build of the tests" fixtures_and_build

check_warnings() {
    # Our warnings: any in our sources, or SwiftPM's about our own package. Dependencies' notes (such as
    # "warning: 'swift-distributed-tracing': found 1 file(s) which are unhandled") are not ours to fix.
    # The set-up built the warble command first (its log: $WARBLE_HOME/cache/build-warble.log): its
    # warnings count too, since this build does not compile those files again.
    local log root_identity ours
    log="$(mktemp)"
    cat "$build_log" > "$log"
    [[ -f "$WARBLE_HOME/cache/build-warble.log" ]] && cat "$WARBLE_HOME/cache/build-warble.log" >> "$log"
    root_identity="$(basename "$warble_root" | tr '[:upper:]' '[:lower:]')"
    ours="$(grep "warning:" "$log" | grep -v "/.build[^/]*/checkouts/" \
        | grep -Ev "^warning: '[^']+':" ; grep "^warning: '$root_identity':" "$log" || true)"
    rm -f "$log"
    if [[ -n "$ours" ]]; then
        printf '%s\n' "$ours" >&2
        die "the build printed compiler warnings (listed above)"
    fi
}
step "no compiler warnings" check_warnings

step "layers (tools/layers/check_layers.py)" bash -c \
    'python3 tools/layers/test_family_strings.py && python3 tools/layers/check_layers.py || { echo "warble: error: a layer depends on what it must not (see above; Docs/Architecture.md)" >&2; exit 1; }'

step "Opus-MT's converter: readers and refusals (tools/marian/test_opus_weights.py)" bash -c \
    '.venv/bin/python tools/marian/test_opus_weights.py >/dev/null || { echo "warble: error: tools/marian/convert_opus.py failed its checks (run tools/marian/test_opus_weights.py)" >&2; exit 1; }'

step "Piper's decoder layout: 4-D and kept blocked (tools/models/test_conv_layout.py)" bash -c \
    '.venv/bin/python tools/models/test_conv_layout.py >/dev/null || { echo "warble: error: tools/models/conv_layout.py failed its checks (run tools/models/test_conv_layout.py)" >&2; exit 1; }'

step "NeuTTS's converter against transformers (tools/neutts/test_convert.py)" bash -c \
    '.venv/bin/python tools/neutts/test_convert.py >/dev/null || { echo "warble: error: tools/neutts/convert.py does not match transformers (run tools/neutts/test_convert.py)" >&2; exit 1; }'

# The unit tests run in two processes side by side (one core each; the test bundle run directly, since two
# `swift test` would wait for each other's lock on the build folder), each one test at a time: Swift Testing's
# own parallel mode starves tests that wait on events behind tests that block the cooperative pool's two
# threads. The tests that read the process's resident memory run last, alone: nothing beside them may
# disturb what they measure.
memory_tests='ConcurrencyTests/noLeakOverTenThousandRuns|CosyVoice3MemoryTests|ChatterboxTests/memoryStaysFlat|ProcessHeapTests'
first_half='WarbleVoicesTests|WarbleTextTests|WarbleAudioTests'
export WARBLE_REQUIRE_FIXTURES=1  # a test that misses its model or fixture fails here rather than skipping
if [[ $# -gt 0 ]]; then
    step "swift test $*" swift test "${test_build[@]}" --skip-build --no-parallel "$@"
    exit 0
fi
bundle="$(swift build "${test_build[@]}" --show-bin-path)/WarblePackageTests.xctest"
unit_tests() {
    local a="$WARBLE_HOME/cache/swift-test-1.log" b="$WARBLE_HOME/cache/swift-test-2.log" status_a=0 status_b=0
    say "unit tests: $first_half in one process, the rest in another (logs: $a, $b)"
    NO_COLOR=1 "$bundle" --testing-library swift-testing --no-parallel --filter "$first_half" --skip "$memory_tests" >"$a" 2>&1 &
    local pid=$!
    NO_COLOR=1 "$bundle" --testing-library swift-testing --no-parallel --skip "$first_half|$memory_tests" >"$b" 2>&1 || status_b=$?
    wait "$pid" || status_a=$?
    cat "$a" "$b"
    [[ $status_a == 0 && $status_b == 0 ]] || die "unit tests failed (see above: ✘ lines)"
}
step "swift test (two processes side by side)" unit_tests
step "swift test (memory, alone)" env NO_COLOR=1 "$bundle" --testing-library swift-testing --no-parallel --filter "$memory_tests"

# End-to-end checks with the test build's programs and real services (each prints "N passed, N failed").
WARBLE_BIN="$(test_bin)/warble"
export WARBLE_BIN WARBLE_NO_BUILD=1
step "the Hub imitation (tools/hub/test_hub_server.py)" python3 tools/hub/test_hub_server.py
for e2e in test-cli test-server-e2e test-studio test-multihost check-deploy test-speechd test-live test-hostile-inputs; do
    step "scripts/$e2e.sh" "scripts/$e2e.sh"
done
# Every fuzz target: its committed corpus, then WARBLE_FUZZ_SECONDS (default 20) of fuzzing.
step "scripts/fuzz.sh (corpora, then ${WARBLE_FUZZ_SECONDS:-20} s a target)" scripts/fuzz.sh --seconds "${WARBLE_FUZZ_SECONDS:-20}"
