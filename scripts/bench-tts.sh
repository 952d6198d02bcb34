#!/usr/bin/env bash
# Benchmarks the two real voices against their Python references, in the same run, on the same model
# files ($WARBLE_HOME/models), texts (tools/ttsbench/texts.json) and ONNX Runtime thread count:
# Piper en_US-joe-medium against piper-tts, Kokoro v1.0 int8 (kokoro-jm_kumo) against kokoro-onnx.
#
#   scripts/bench-tts.sh [piper] [kokoro]      (default: both)
#
#   BENCH_ROUNDS=3        rounds; Swift and Python alternate (order flipped each round), medians taken
#   BENCH_THREADS=1       intra-op threads on both sides
#   BENCH_MEMORY_WORDS=5000   words of the long text of the memory comparison (0: skip it)
#   BENCH_MEMORY_PYTHON=0     1: also measure the references' memory on the long text
#   BENCH_WHOLE_THREADS="1 2" thread budgets of the whole-process runs ("": skip them)
#
# Whole processes as users run them: `warble say --threads N -o FILE` on the text set read as one text
# (13 sentences, 182 words) against the reference's own streaming path writing the same text's audio
# to a file (tools/bench/first_audio_ref.py, N ONNX Runtime threads), alternating, medians of the
# rounds; targets: Piper <= 0.6x, Kokoro <= 0.65x (issue #44).
#
# Prints, per voice, Swift and Python medians and their ratios against the targets: synthesis wall
# time <= 0.9 x Python, time outside ORT's Run < 5 % of synthesis, time to first audio of a
# 5-sentence paragraph <= 1.2 x synthesising its first sentence alone, peak memory for the long text
# <= 1.2 x one sentence (whole-process peak RSS from /usr/bin/time -v, and VmHWM). The memory runs
# use the chunk cache of `warble say` (4 MiB); the timing runs turn it off.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing (apt-get install time)"
"$warble_root/scripts/python-env.sh"
python="$warble_root/.venv/bin/python"
ort="$("$python" -c 'import onnxruntime; print(onnxruntime.__version__)')"
[[ "$ort" == "1.31.1" ]] || die "the Python references run onnxruntime $ort, expected 1.31.1 (tools/requirements.txt)"

scratch="$warble_root/.build-ttsbench"
warble="$(release_warble "$scratch")"

rounds="${BENCH_ROUNDS:-3}"
threads="${BENCH_THREADS:-1}"
memory_words="${BENCH_MEMORY_WORDS:-5000}"
voices=("$@")
((${#voices[@]})) || voices=(piper kokoro)
out="$scratch/bench/$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$out"
"$python" tools/ttsbench/long_text.py "$memory_words" > "$out/long-$memory_words.txt"
# "One sentence" is the long text's first sentence, so that only the amount of text differs.
"$python" -c 'import sys; print(open(sys.argv[1]).read().split(". ")[0] + ".")' "$out/long-$memory_words.txt" \
    > "$out/one-sentence.txt"

swift_voice() { case "$1" in piper) echo en_US-joe-medium ;; kokoro) echo kokoro-jm_kumo ;; *) die "unknown voice '$1' (piper or kokoro)" ;; esac; }
run_swift() { "$warble" bench tts --voice "$(swift_voice "$1")" --threads "$threads" --texts tools/ttsbench/texts.json "${@:2}"; }
run_python() { "$python" tools/ttsbench/bench_reference.py --engine "$1" --threads "$threads" "${@:2}"; }

for voice in "${voices[@]}"; do
    for round in $(seq "$rounds"); do
        say "$voice: round $round/$rounds"
        if ((round % 2)); then
            run_swift "$voice" >> "$out/$voice-swift.jsonl"
            run_python "$voice" >> "$out/$voice-python.jsonl"
        else
            run_python "$voice" >> "$out/$voice-python.jsonl"
            run_swift "$voice" >> "$out/$voice-swift.jsonl"
        fi
    done
    if ((memory_words > 0)); then
        for text in one-sentence "long-$memory_words"; do
            say "$voice: peak memory, $text"
            /usr/bin/time -v -o "$out/$voice-swift-mem-$text.time" \
                "$warble" bench tts --voice "$(swift_voice "$voice")" --threads "$threads" --cache-mb 4 \
                --text-file "$out/$text.txt" > "$out/$voice-swift-mem-$text.json"
            if [[ "${BENCH_MEMORY_PYTHON:-0}" == 1 ]]; then
                /usr/bin/time -v -o "$out/$voice-python-mem-$text.time" \
                    "$python" tools/ttsbench/bench_reference.py --engine "$voice" --threads "$threads" \
                    --text-file "$out/$text.txt" > "$out/$voice-python-mem-$text.json"
            fi
        done
    fi
done

whole_threads="${BENCH_WHOLE_THREADS-1 2}"
if [[ -n "$whole_threads" ]]; then
    "$python" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(" ".join(d["sentences"] + d["paragraph"]))' \
        tools/ttsbench/texts.json > "$out/text-set.txt"
    whole_run() {  # IMPL VOICE THREADS: one whole process, its wall time appended to whole.jsonl
        local started ended
        started="$EPOCHREALTIME"
        if [[ "$1" == swift ]]; then
            "$warble" say --voice "$(swift_voice "$2")" --threads "$3" -q -o "$out/whole.wav" < "$out/text-set.txt"
        else
            "$python" tools/bench/first_audio_ref.py "$2" "$out/text-set.txt" --threads "$3" > "$out/whole.pcm"
        fi
        ended="$EPOCHREALTIME"
        echo "{\"voice\": \"$2\", \"threads\": $3, \"impl\": \"$1\", \"wall_s\": $(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.3f", b - a }')}" >> "$out/whole.jsonl"
    }
    for voice in "${voices[@]}"; do
        for t in $whole_threads; do
            for round in $(seq "$rounds"); do
                say "$voice: whole process, $t thread(s), round $round/$rounds"
                if ((round % 2)); then whole_run swift "$voice" "$t"; whole_run python "$voice" "$t"
                else whole_run python "$voice" "$t"; whole_run swift "$voice" "$t"; fi
            done
        done
    done
fi

say "results in $out"
"$python" tools/ttsbench/summarize.py "$out"
