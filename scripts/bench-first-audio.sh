#!/usr/bin/env bash
# Time to first audio, whole-process wall time and peak memory of `warble say -o -` (Piper and
# Kokoro) against the Python references' streaming paths (piper-tts, kokoro-onnx), on the same model
# files and the whole machine, measured in the same run: a 5-sentence paragraph whose first sentence is long,
# and a 5,000-word text. Rounds alternate Swift and Python; medians are reported.
# The 5,000-word text (about half an hour of speech) is cut off after CAP seconds on both sides: time
# to first audio and peak memory up to then are compared; whole-process wall time is compared on the
# paragraph, which runs to the end.
#   scripts/bench-first-audio.sh [ROUNDS] [CAP]      (defaults 3 and 120)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"
rounds="${1:-3}"
cap="${2:-120}"
# The whole machine on both sides: the references with one ONNX Runtime thread per core; warble with its
# default (automatic: on 2+ cores the next sentence is rendered while the current one is out, each on
# half the cores). BENCH_SWIFT_THREADS=2 compares one sentence at a time on 2 threads instead.
threads="$(nproc)"
swift_threads="${BENCH_SWIFT_THREADS:-0}"

"$warble_root/scripts/setup.sh" --dev >&2
.venv/bin/python -c "import piper, kokoro_onnx" 2>/dev/null \
    || die "the Python references are missing: scripts/python-env.sh installs piper-tts and kokoro-onnx (tools/ttsbench)"
warble="$(release_warble "$warble_root/.build")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/paragraph.txt" <<'TEXT'
When the first sentence of a paragraph is long, with several clauses, a list of places such as Lisbon, Oslo and Nairobi, and far more words than anyone would say in one breath, a listener waits for all of it before hearing anything unless the engine starts early. The second sentence is shorter. Here is a third one. A fourth follows it. The fifth ends the paragraph.
TEXT
python3 - "$work/long.txt" <<'PY'
import sys
sentences = [
    "The morning train left the station a few minutes late, but nobody on the platform seemed to mind.",
    "She opened the window, listened to the rain for a while, and then went back to her book.",
    "Numbers like 42, dates like March 3rd, and times like 4:30 pm are read out in full.",
    "Why would anyone build a bridge that long across such a quiet river?",
    "In the end, the committee agreed to meet again next week and decide then.",
]
# Every sentence differs (a running count), so no engine can answer from a cache of repeated ones.
places = ["Lisbon", "Oslo", "Nairobi", "Quito", "Hanoi", "Perth", "Tromso", "Accra", "Lima", "Riga"]
words, out, i = 0, [], 0
while words < 5000:
    s = sentences[i % len(sentences)] + f" That was note {i + 1}, written in {places[i % len(places)]}."
    out.append(s)
    words += len(s.split())
    i += 1
open(sys.argv[1], "w").write(" ".join(out) + "\n")
PY

measure() { .venv/bin/python tools/bench/first_audio.py "$@"; }
results="$work/results.jsonl"
for round in $(seq "$rounds"); do
    for text in paragraph long; do
        for engine in piper kokoro; do
            voice=en_US-joe-medium; [[ $engine == kokoro ]] && voice=kokoro-jm_kumo
            limit=(); [[ $text == long ]] && limit=(--max-seconds "$cap")
            s="$(measure --skip-header "${limit[@]}" -- "$warble" say --voice "$voice" --threads "$swift_threads" -q -o - < "$work/$text.txt")"
            p="$(measure "${limit[@]}" -- .venv/bin/python tools/bench/first_audio_ref.py "$engine" "$work/$text.txt" --threads "$threads")"
            echo "{\"text\": \"$text\", \"engine\": \"$engine\", \"swift\": $s, \"python\": $p}" >> "$results"
            echo "round $round $text $engine done" >&2
        done
    done
done

python3 - "$results" "$threads" "$swift_threads" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
def med(text, engine, side, key):
    # No first audio before the cap is recorded as null: it counts as later than any time measured.
    values = [r[side][key] for r in rows if r["text"] == text and r["engine"] == engine]
    return statistics.median(float("inf") if v is None else v for v in values)
def secs(v, width):
    return f"{'none':>{width}} " if v == float("inf") else f"{v:{width}.2f}s"
def ratio(a, b):
    return f"{'-':>6}" if float("inf") in (a, b) else f"{a / b:6.2f}"
print(f"First audio sooner: warble say -o - (threads {sys.argv[3]}, 0 = automatic) vs the Python references ({sys.argv[2]} threads), medians of {len(rows)//4} rounds")
print(f"{'text':10} {'engine':7} {'TTFA swift':>11} {'TTFA ref':>9} {'ratio':>6} | {'wall swift':>10} {'wall ref':>9} {'ratio':>6} | {'RSS swift':>10} {'RSS ref':>8}")
print("(long: both sides stopped after the cap; its wall column is the cap, not the job; none: no audio before the cap)")
for text in ("paragraph", "long"):
    for engine in ("piper", "kokoro"):
        ts, tp = med(text, engine, "swift", "first_audio_s"), med(text, engine, "python", "first_audio_s")
        ws, wp = med(text, engine, "swift", "wall_s"), med(text, engine, "python", "wall_s")
        ms, mp = med(text, engine, "swift", "peak_rss_mib"), med(text, engine, "python", "peak_rss_mib")
        print(f"{text:10} {engine:7} {secs(ts, 10)} {secs(tp, 8)} {ratio(ts, tp)} | {secs(ws, 9)} {secs(wp, 8)} {ratio(ws, wp)} | {ms:8.0f}MiB {mp:6.0f}MiB")
for engine in ("piper", "kokoro"):
    gs = med("long", engine, "swift", "peak_rss_mib") / med("paragraph", engine, "swift", "peak_rss_mib")
    gp = med("long", engine, "python", "peak_rss_mib") / med("paragraph", engine, "python", "peak_rss_mib")
    print(f"peak memory, 5,000 words / paragraph: {engine} swift {gs:.2f}x, reference {gp:.2f}x")
print("targets: TTFA ratio <= 0.5, wall ratio <= 0.9, Swift memory flat with text length")
PY
