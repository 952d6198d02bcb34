#!/usr/bin/env bash
# NeuTTS Nano at its real size on this machine (issue #22): tools/neutts/bench_graphs.py writes a random
# Nano checkpoint (Llama, hidden 576, 24 layers, 9 heads / 3 KV heads, vocab 194256) converted by
# convert.py, a tokenizer with Nano's id layout and a NeuCodec decoder stand-in of the real decoder's
# cost, into a temporary directory (removed on exit, never in the repository); `warble bench stages neutts`
# and tools/bench/neutts_bench.py (reference.py's control flow) then run on the same graphs,
# alternating (order flipped each round); medians are printed.
#
#   BENCH_ROUNDS=3          rounds of Swift and Python
#   BENCH_THREADS=2         intra-op threads on both sides (the machine's cores)
#   BENCH_TOKENS=200        tokens written (at least 60; 50 codes = 1 s of audio)
#   BENCH_CHUNKS=25,50      streaming chunk sizes simulated
#   BENCH_LAYERS=24         backbone layers (24 real; fewer for a quick try)
#   BENCH_VARIANTS=f32      comma-separated: f32 (onnx/model.onnx), int8 (quantize_dynamic, figures only)
#   BENCH_SKIP_SETUP=1      do not run scripts/setup.sh --dev first
#   BENCH_GRAPHS=DIR        use graphs bench_graphs.py made before (kept) instead of making them (~1 min)
#   WARBLE_BENCH_SCRATCH    the release build's scratch path (default .build-bench)
#
# Prints per-token decode time (Swift, Python, ratio), the share of decode time outside ONNX Runtime's
# Run (target < 5 %), prefill + first token, codec seconds per second of audio, the predicted real-time
# factor, and per chunk size the time to first audio and the playback stalls of the simulated stream.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

bench_warble

rounds="${BENCH_ROUNDS:-3}"
threads="${BENCH_THREADS:-2}"
tokens="${BENCH_TOKENS:-200}"
chunks="${BENCH_CHUNKS:-25,50}"
layers="${BENCH_LAYERS:-24}"
IFS=, read -r -a variants <<< "${BENCH_VARIANTS:-f32}"
backbone_of() { case "$1" in f32) echo onnx/model.onnx ;; int8) echo onnx/model_int8.onnx ;; *) die "unknown variant $1 (f32, int8)" ;; esac; }
for variant in "${variants[@]}"; do backbone_of "$variant" > /dev/null; done

if [[ -n "${BENCH_GRAPHS:-}" ]]; then
    graphs="$BENCH_GRAPHS"  # made before by bench_graphs.py (with --int8 for the int8 variant); kept
    [[ -f "$graphs/onnx/model.onnx" && -f "$graphs/codec/model.onnx" ]] || die "$graphs holds no bench_graphs.py output"
else
    graphs="$(mktemp -d "${TMPDIR:-/tmp}/warble-neutts-bench.XXXXXX")"
    trap 'rm -rf "$graphs"' EXIT
    int8=()
    [[ " ${variants[*]} " == *" int8 "* ]] && int8=(--int8)
    say "making real-size graphs with random weights in $graphs ($layers layers${int8:+, int8 too})"
    "$python" tools/neutts/bench_graphs.py "$graphs" --layers "$layers" "${int8[@]}"
fi

out="$scratch/bench-neutts/$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$out"
args=(--model-dir "$graphs" --codec "$graphs/codec/model.onnx" --tokens "$tokens" --threads "$threads" --chunk "$chunks" --repeats 1)
run_swift() { "$warble" bench stages neutts "${args[@]}" --backbone "$(backbone_of "$1")" >> "$out/swift-$1.jsonl"; }
run_python() { "$python" tools/bench/neutts_bench.py "${args[@]}" --backbone "$(backbone_of "$1")" >> "$out/python-$1.jsonl"; }
for round in $(seq "$rounds"); do
    for variant in "${variants[@]}"; do
        say "round $round/$rounds ($variant; load $(cut -d' ' -f1-3 /proc/loadavg))"
        if ((round % 2)); then run_swift "$variant"; run_python "$variant"; else run_python "$variant"; run_swift "$variant"; fi
    done
done

say "results in $out"
"$python" - "$out" "$tokens" "$threads" "$layers" "$chunks" "${variants[@]}" <<'PY'
import json, statistics, sys
from pathlib import Path
out, tokens, threads, layers, chunks, *variants = sys.argv[1:]
out, chunks = Path(out), chunks.split(",")

def load(name):
    path = out / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

def med(rows, key, chunk=None):
    values = [(r["streaming"][chunk] if chunk else r).get(key) for r in rows]
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")

for variant in variants:
    swift, python = load(f"swift-{variant}"), load(f"python-{variant}")
    same = all(s["first_tokens"] == swift[0]["first_tokens"] for s in swift + python)
    print(f"NeuTTS Nano {variant}, real-size graphs with random weights ({layers} layers), {tokens} tokens "
          f"({int(tokens) / 50:.1f} s of audio), prompt {swift[0]['prompt_tokens']} tokens, {threads} threads, "
          f"medians of {len(swift)} rounds; same tokens on both sides: {'yes' if same else 'NO'}")
    print(f"{'':40} {'swift':>10} {'python':>10} {'ratio':>7}")
    def row(label, key, scale=1.0, fmt="{:10.3f}", chunk=None):
        s, p = med(swift, key, chunk) * scale, med(python, key, chunk) * scale
        ratio = f"{s / p:7.3f}" if p == p and p else ""
        print(f"{label:40} {fmt.format(s)} {fmt.format(p) if p == p else '':>10} {ratio}")
    row("per-token decode (ms)", "per_token_ms", fmt="{:10.1f}")
    row("decode time outside ORT Run (%)", "decode_outside_run", 100, "{:10.2f}")
    row("prefill + first token (s)", "first_token_s")
    row("codec (s per s of audio, one shot)", "codec_s_per_audio_s")
    row("predicted RTF (one shot)", "predicted_rtf", fmt="{:10.2f}")
    for c in chunks:
        row(f"chunk {c}: one chunk's decode (s)", "chunk_decode_s", chunk=c)
        row(f"chunk {c}: streaming RTF", "streaming_rtf", fmt="{:10.2f}", chunk=c)
        row(f"chunk {c}: time to first audio (s)", "first_audio_s", chunk=c, fmt="{:10.2f}")
        row(f"chunk {c}: playback stalls", "stalls", chunk=c, fmt="{:10.0f}")
        row(f"chunk {c}: total stall (s)", "stall_s", chunk=c, fmt="{:10.2f}")
    outside = med(swift, "decode_outside_run") * 100
    print(f"  Swift decode time outside ORT: {outside:.2f} % (target < 5 %: {'met' if outside < 5 else 'NOT met'})")
    s, p = med(swift, "per_token_ms"), med(python, "per_token_ms")
    print(f"  per-token decode Swift/Python = {s / p:.3f} ({'Swift faster' if s < p else 'Swift slower'})")
    stalls = {c: (med(swift, "stalls", c), med(swift, "stall_s", c)) for c in chunks}
    print("  Swift streaming: " + "; ".join(f"chunk {c}: {n:.0f} stalls, {t:.2f} s" for c, (n, t) in stalls.items()))
PY
