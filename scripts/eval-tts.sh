#!/usr/bin/env bash
# Quality eval of the two real voices: synthesises tools/ttsbench/wer_sentences.json (30 sentences with
# numbers, dates, names and questions) through `warble say` and through the Python references
# (piper-tts, kokoro-onnx) on the same model files, transcribes everything with faster-whisper
# (whisper-base, CTranslate2, from $WARBLE_HOME/cache/whisper-ct2) and prints the word error rate of
# each set. Target: Swift no worse than the reference. See tools/ttsbench/eval_wer.py for how the
# text is normalised.
#
#   scripts/eval-tts.sh [piper] [kokoro]     (default: both)
#   EVAL_THREADS=1   ONNX Runtime threads for synthesis
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
"$warble_root/scripts/python-env.sh"
python="$warble_root/.venv/bin/python"
[[ -f "$WARBLE_HOME/cache/whisper-ct2/whisper-base/model.bin" ]] \
    || die "$WARBLE_HOME/cache/whisper-ct2/whisper-base is missing; run tools/whisper/install.sh (scripts/setup.sh does)"

scratch="$warble_root/.build-ttsbench"
say "building warble (release)"
swift build -c release --scratch-path "$scratch" --product warble >&2
warble="$scratch/release/warble"
threads="${EVAL_THREADS:-1}"
voices=("$@")
((${#voices[@]})) || voices=(piper kokoro)
out="$scratch/eval"
sets=()
for voice in "${voices[@]}"; do
    case "$voice" in piper) id=en_US-joe-medium ;; kokoro) id=kokoro-jm_kumo ;; *) die "unknown voice '$voice' (piper or kokoro)" ;; esac
    say "$voice: warble say, one process per sentence"
    rm -rf "$out/swift-$voice" "$out/python-$voice"
    mkdir -p "$out/swift-$voice"
    i=0
    while IFS= read -r sentence; do
        "$warble" say --quiet --voice "$id" --threads "$threads" -o "$out/swift-$voice/$(printf %02d "$i").wav" "$sentence"
        i=$((i + 1))
    done < <("$python" -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))))' tools/ttsbench/wer_sentences.json)
    say "$voice: Python reference"
    "$python" tools/ttsbench/eval_wer.py synth --engine "$voice" --threads "$threads" --out "$out/python-$voice"
    sets+=("swift-$voice=$out/swift-$voice" "python-$voice=$out/python-$voice")
done
say "transcribing with faster-whisper (whisper-base)"
"$python" tools/ttsbench/eval_wer.py score --out "$out/wer.json" "${sets[@]}"
say "transcripts and per-sentence errors in $out/wer.json"
