#!/usr/bin/env bash
# Fuzzes Warble's parsers and the speech pipeline with libFuzzer + AddressSanitizer.
#   scripts/fuzz.sh [--seconds N | --runs N] [TARGET...]     (default: --seconds 60, every target)
# Targets (Fuzz/Sources): fuzz-wav, fuzz-decode, fuzz-ssml, fuzz-synthesis, fuzz-multipart,
# fuzz-speech-body, fuzz-speechd, fuzz-model-files. Builds the separate package in Fuzz/ once (so the main build never
# sees fuzzer flags) into .build-fuzz, then for each target: replays its committed regression corpus
# Fuzz/Corpus/<target>/ (seeds and a reproducer of every crash found and fixed), then fuzzes for the
# bound, starting from that corpus and what earlier runs found (.build-fuzz/corpus/<target>), with
# Fuzz/Dictionaries/<name>.dict where there is one. A crash, an AddressSanitizer report, an input that
# takes more than 10 s or memory over 2 GB is a failure: its reproducer is kept in
# .build-fuzz/artifacts/<target>/ and the script exits 1 at the end. Prints per target the runs,
# exec/s and "no crash", then "N passed, N failed". WARBLE_FUZZ_JOBS targets run at a time (default 2).
# libFuzzer ships with the Swift toolchain.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

all_targets=(fuzz-wav fuzz-decode fuzz-ssml fuzz-synthesis fuzz-multipart fuzz-speech-body fuzz-speechd fuzz-model-files)
bound=(-max_total_time=60)
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) [[ "${2:-}" =~ ^[0-9]+$ ]] || die "--seconds takes a whole number"; bound=(-max_total_time="$2"); shift 2 ;;
        --runs) [[ "${2:-}" =~ ^[0-9]+$ ]] || die "--runs takes a whole number"; bound=(-runs="$2"); shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        fuzz-*) [[ " ${all_targets[*]} " == *" $1 "* ]] || die "unknown target '$1' (targets: ${all_targets[*]})"
                targets+=("$1"); shift ;;
        *) die "unknown argument '$1' (usage: scripts/fuzz.sh [--seconds N | --runs N] [TARGET...])" ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

# Largest input per target: enough for its formats (an Ogg Vorbis file needs ~4 KB of headers),
# small enough to keep runs fast.
max_len() {
    case "$1" in
        fuzz-decode) echo 8192 ;;
        fuzz-wav|fuzz-multipart|fuzz-speech-body|fuzz-model-files) echo 4096 ;;
        fuzz-synthesis) echo 1024 ;;
        *) echo 2048 ;;
    esac
}
dictionary() {
    case "$1" in
        fuzz-ssml|fuzz-synthesis) echo ssml ;;
        fuzz-multipart) echo multipart ;;
        fuzz-speech-body) echo speech-body ;;
        fuzz-speechd) echo speechd ;;
        *) echo "" ;;
    esac
}

package="$warble_root/Fuzz"
scratch="$warble_root/.build-fuzz"
flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
say "building the fuzz targets (-sanitize=fuzzer,address) into .build-fuzz"
swift build --package-path "$package" --scratch-path "$scratch" "${flags[@]}" >&2 || die "the fuzz build failed"
bin="$(swift build --package-path "$package" --scratch-path "$scratch" "${flags[@]}" --show-bin-path)"

# Traps go to libFuzzer's handler, which keeps the reproducer; Swift's own backtracer would catch them
# first (and its memory reader trips AddressSanitizer).
export SWIFT_BACKTRACE=enable=no
# fuzz_target TARGET: replays its committed corpus, then fuzzes for the bound; its outcome (pass or fail) goes
# to $scratch/results/TARGET. Targets run WARBLE_FUZZ_JOBS at a time (default 2: libFuzzer uses one core each).
fuzz_target() {
    local target="$1" committed work artifacts log options leaks dict runs rate wall
    committed="$package/Corpus/$target"
    work="$scratch/corpus/$target"
    artifacts="$scratch/artifacts/$target"
    log="$scratch/logs/$target.log"
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    options=(-timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$target")" -artifact_prefix="$artifacts/")
    # LeakSanitizer cannot follow the pointers Swift keeps in spare bits of enum payloads: the English
    # normaliser's lazily built regular expressions are reported as leaked. Off for that target only.
    leaks=1
    [[ "$target" == fuzz-synthesis ]] && leaks=0
    options+=(-detect_leaks="$leaks")
    dict="$(dictionary "$target")"
    [[ -n "$dict" ]] && options+=(-dict="$package/Dictionaries/$dict.dict")

    say "$target: replaying $(find "$committed" -type f | wc -l) committed inputs"
    if ! (cd "$artifacts" && ASAN_OPTIONS="detect_leaks=$leaks" "$bin/$target" "${options[@]}" "$committed"/*) >"$log.replay" 2>&1; then
        tail -40 "$log.replay" >&2
        say "$target: FAILED on the committed corpus (log: $log.replay; reproducer in $artifacts)"
        echo fail > "$results/$target"
        return
    fi

    say "$target: fuzzing (${bound[*]})"
    if (cd "$artifacts" && ASAN_OPTIONS="detect_leaks=$leaks" "$bin/$target" "${options[@]}" "${bound[@]}" -print_final_stats=1 "$work" "$committed") >"$log" 2>&1; then
        runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
        rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
        wall="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
        say "$target: ${runs:-?} runs, ${rate:-?} exec/s, ${wall:-?} s, no crash"
        echo pass > "$results/$target"
    else
        grep -E "^==[0-9]+==ERROR|Fatal error|SUMMARY|Test unit written|^MS:|Assertion|precondition" "$log" | head -20 >&2 || true
        say "$target: FAILED (log: $log; reproducer in $artifacts; minimise with: $bin/$target -minimize_crash=1 -runs=10000 FILE)"
        echo fail > "$results/$target"
    fi
}

results="$scratch/results"
rm -rf "$results"
mkdir -p "$results"
jobs_at_once="${WARBLE_FUZZ_JOBS:-2}"
[[ "$jobs_at_once" =~ ^[1-9][0-9]*$ ]] || die "WARBLE_FUZZ_JOBS must be a whole number from 1"
for target in "${targets[@]}"; do
    while (( $(jobs -rp | wc -l) >= jobs_at_once )); do wait -n || true; done
    fuzz_target "$target" &
done
wait
passed=0
failed=0
for target in "${targets[@]}"; do
    if [[ "$(cat "$results/$target" 2>/dev/null)" == pass ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

say "$passed passed, $failed failed"
[[ $failed == 0 ]]
