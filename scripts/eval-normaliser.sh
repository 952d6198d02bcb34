#!/usr/bin/env bash
# Text normalisation eval: speaks tools/ttsbench/normaliser_sentences.json (decades, scores, ranges,
# Roman numerals, square and cubic units, feet and inches, durations, fractions, telephone numbers,
# e-mail addresses and URLs, and the context rules: 42 sentences written as people write) through
# `warble say` and through the Python references (piper-tts, kokoro-onnx, which leave the text to
# espeak-ng) on the same model files, hears everything back with faster-whisper (whisper-base,
# CTranslate2, from $WARBLE_HOME/cache/whisper-ct2) and prints each set's share of sentences read
# right, overall and by class. "Right" (tools/ttsbench/eval_normaliser.py): the transcript equals
# one of the item's readings word for word once both are in Whisper's normalised form.
#
#   scripts/eval-normaliser.sh [piper] [kokoro]     (default: both)
#   EVAL_THREADS=1   ONNX Runtime threads for synthesis
#   WARBLE_BUILD_LOCK=/path   build under `flock` on this file (machines shared with other builds)
#   EVAL_WARBLE=/path/to/warble   use this binary instead of building one (the normaliser is the same
#                                 code in a debug build)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
"$warble_root/scripts/python-env.sh"
python="$warble_root/.venv/bin/python"
[[ -f "$WARBLE_HOME/cache/whisper-ct2/whisper-base/model.bin" ]] \
    || die "$WARBLE_HOME/cache/whisper-ct2/whisper-base is missing; run tools/whisper/install.sh (scripts/setup.sh does)"

scratch="$warble_root/.build-ttsbench"
if [[ -n "${EVAL_WARBLE:-}" ]]; then
    warble="$EVAL_WARBLE"
else
    say "building warble (release)"
    ${WARBLE_BUILD_LOCK:+flock "$WARBLE_BUILD_LOCK"} swift build -c release --scratch-path "$scratch" --product warble >&2
    warble="$scratch/release/warble"
fi
threads="${EVAL_THREADS:-1}"
voices=("$@")
((${#voices[@]})) || voices=(piper kokoro)
out="$scratch/eval-normaliser"
sets=()
for voice in "${voices[@]}"; do
    case "$voice" in piper) id=en_US-joe-medium ;; kokoro) id=kokoro-jm_kumo ;; *) die "unknown voice '$voice' (piper or kokoro)" ;; esac
    say "$voice: warble say, one process per sentence"
    rm -rf "$out/warble-$voice" "$out/reference-$voice"
    mkdir -p "$out/warble-$voice"
    i=0
    while IFS= read -r sentence; do
        "$warble" say --quiet --voice "$id" --threads "$threads" -o "$out/warble-$voice/$(printf %02d "$i").wav" "$sentence"
        i=$((i + 1))
    done < <("$python" tools/ttsbench/eval_normaliser.py texts)
    say "$voice: Python reference"
    "$python" tools/ttsbench/eval_normaliser.py synth --engine "$voice" --threads "$threads" --out "$out/reference-$voice"
    sets+=("warble-$voice=$out/warble-$voice" "reference-$voice=$out/reference-$voice")
done
say "transcribing with faster-whisper (whisper-base)"
"$python" tools/ttsbench/eval_normaliser.py score --out "$out/report.json" "${sets[@]}"
say "transcripts and per-item verdicts in $out/report.json"
