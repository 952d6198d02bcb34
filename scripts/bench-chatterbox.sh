#!/usr/bin/env bash
# Chatterbox Turbo at its real size on this machine (issue #21): tools/chatterbox/bench_graphs.py makes
# the ONNX export's four graphs with the real language model (GPT-2 medium: 24 layers, 16 heads × 64,
# width 1024, MLP 4096, vocabulary 6563), stand-ins of realistic cost for the speech encoder and the
# conditional decoder, and random weights, into a temporary directory (removed on exit, never in the
# repository); `warble bench stages chatterbox` and tools/bench/chatterbox_bench.py (reference.py's control
# flow) then run on the same graphs, alternating (order flipped each round); medians are printed.
#
#   BENCH_ROUNDS=3          rounds of Swift and Python
#   BENCH_THREADS=2         intra-op threads on both sides (the machine's cores)
#   BENCH_TOKENS=200        speech tokens written (at least 30; 25 tokens = 1 s of audio)
#   BENCH_LAYERS=24         language-model layers (24 real; fewer for a quick try)
#   BENCH_VARIANTS=fp32     comma-separated: fp32, q4f16
#   BENCH_SKIP_SETUP=1      do not run scripts/setup.sh --dev first
#   BENCH_GRAPHS=DIR        use graphs bench_graphs.py made before (kept) instead of making them (~1 min)
#   WARBLE_BENCH_SCRATCH    the release build's scratch path (default .build-bench)
#
# Prints per-token decode time (Swift, Python, ratio), the share of decode time outside ONNX Runtime's
# Run (target < 5 %), prefill + first token, decoder seconds per second of audio, and the predicted
# real-time factors (one-shot, and streaming 30 s in the growing chunks of 25, 50, 100, 200, … tokens and
# in the fixed 25-token chunks of before), and each stream's summed decoder time and playback stall for
# 10 s and 30 s of speech.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

bench_warble

rounds="${BENCH_ROUNDS:-3}"
threads="${BENCH_THREADS:-2}"
tokens="${BENCH_TOKENS:-200}"
layers="${BENCH_LAYERS:-24}"
IFS=, read -r -a variants <<< "${BENCH_VARIANTS:-fp32}"

if [[ -n "${BENCH_GRAPHS:-}" ]]; then
    graphs="$BENCH_GRAPHS"  # made before by bench_graphs.py (with these variants); kept
    [[ -f "$graphs/onnx/language_model.onnx" || -f "$graphs/onnx/language_model_q4f16.onnx" ]] ||
        die "$graphs holds no bench_graphs.py output"
else
    graphs="$(mktemp -d "${TMPDIR:-/tmp}/warble-chatterbox-bench.XXXXXX")"
    trap 'rm -rf "$graphs"' EXIT
    for variant in "${variants[@]}"; do
        say "making real-size graphs with random weights in $graphs ($variant, $layers layers)"
        "$python" tools/chatterbox/bench_graphs.py "$graphs" --variant "$variant" --layers "$layers"
    done
fi

out="$scratch/bench-chatterbox/$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$out"
args=(--model-dir "$graphs" --tokens "$tokens" --threads "$threads" --repeats 1)
run_swift() { "$warble" bench stages chatterbox "${args[@]}" --variant "$1" >> "$out/swift-$1.jsonl"; }
run_python() { "$python" tools/bench/chatterbox_bench.py "${args[@]}" --variant "$1" >> "$out/python-$1.jsonl"; }
for round in $(seq "$rounds"); do
    for variant in "${variants[@]}"; do
        say "round $round/$rounds ($variant; load $(cut -d' ' -f1-3 /proc/loadavg))"
        if ((round % 2)); then run_swift "$variant"; run_python "$variant"; else run_python "$variant"; run_swift "$variant"; fi
    done
done

say "results in $out"
"$python" - "$out" "$tokens" "$threads" "$layers" "${variants[@]}" <<'PY'
import json, statistics, sys
from pathlib import Path
out, tokens, threads, layers, *variants = sys.argv[1:]
out = Path(out)

def load(name):
    path = out / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

def med(rows, key):
    return statistics.median(r[key] for r in rows) if rows else float("nan")

for variant in variants:
    swift, python = load(f"swift-{variant}"), load(f"python-{variant}")
    print(f"Chatterbox Turbo {variant}, real-size graphs with random weights ({layers} layers), {tokens} tokens "
          f"({int(tokens) / 25:.1f} s of audio), prefill {swift[0]['prefill_rows']} rows, {threads} threads, "
          f"medians of {len(swift)} rounds")
    print(f"{'':38} {'swift':>10} {'python':>10} {'ratio':>7}")
    def row(label, key, scale=1.0, fmt="{:10.3f}"):
        s, p = med(swift, key) * scale, med(python, key) * scale
        ratio = f"{s / p:7.3f}" if p == p and p else ""
        print(f"{label:38} {fmt.format(s)} {fmt.format(p) if p == p else '':>10} {ratio}")
    row("per-token decode (ms)", "per_token_ms", fmt="{:10.1f}")
    row("decode time outside ORT Run (%)", "decode_outside_run", 100, "{:10.2f}")
    row("prefill + first token (s)", "first_token_s")
    row("decoder (s per s of audio, one shot)", "decoder_s_per_audio_s")
    row("decoder outside ORT Run (%)", "decoder_outside_run", 100, "{:10.2f}")
    row("speech encoder, once per voice (s)", "encoder_s")
    row("predicted RTF (one shot)", "predicted_rtf", fmt="{:10.2f}")
    row("stream: first audio after prefill (s)", "stream_first_audio_s")
    for secs in ("10s", "30s"):
        row(f"stream {secs}: decoder (s), growing chunks", f"stream_decoder_s_{secs}")
        row(f"stream {secs}: decoder (s), 25-token chunks", f"stream_decoder_s_{secs}_fixed")
        row(f"stream {secs}: stall (s), growing chunks", f"stream_stall_s_{secs}")
        row(f"stream {secs}: stall (s), 25-token chunks", f"stream_stall_s_{secs}_fixed")
    row("predicted RTF (stream 30s, growing)", "streaming_rtf", fmt="{:10.2f}")
    row("predicted RTF (stream 30s, 25-token)", "streaming_rtf_fixed", fmt="{:10.2f}")
    outside = med(swift, "decode_outside_run") * 100
    print(f"  Swift decode time outside ORT: {outside:.2f} % (target < 5 %: {'met' if outside < 5 else 'NOT met'})")
    s, p = med(swift, "per_token_ms"), med(python, "per_token_ms")
    print(f"  per-token decode Swift/Python = {s / p:.3f} ({'Swift faster' if s < p else 'Swift slower'})")
PY
