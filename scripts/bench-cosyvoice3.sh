#!/usr/bin/env bash
# CosyVoice 3 at its real sizes on this machine (issue #20): tools/cosyvoice3/bench_graphs.py makes the
# community export's graphs with the real models' compute (Qwen2-0.5B backbone, the 22-block DiT, HiFT
# at its channel counts) and random weights into a temporary directory (removed on exit, never in the
# repository); `warble bench stages cosyvoice3` and tools/bench/cosyvoice3_bench.py (reference.py's control
# flow) then run on the same graphs, alternating (order flipped each round); medians are printed.
#
#   BENCH_ROUNDS=3          rounds of Swift and Python (fp32)
#   BENCH_THREADS=2         intra-op threads on both sides (the machine's cores)
#   BENCH_TOKENS=40         speech tokens generated (a multiple of 20; 25 tokens = 1 s of audio)
#   BENCH_PROMPT_TOKENS=25  speech tokens of the voice prompt (the flow also runs over its frames)
#   BENCH_LAYERS=24         backbone layers (24 real; fewer for a quick try)
#   BENCH_FP16=1            also the fp16 variant (Swift; BENCH_PYTHON_FP16=1: Python too)
#   BENCH_SKIP_SETUP=1      do not run scripts/setup.sh --dev first
#   BENCH_GRAPHS=DIR        use graphs bench_graphs.py made before (kept) instead of making them (~4 min)
#   WARBLE_BENCH_SCRATCH    the release build's scratch path (default .build-bench)
#
# Prints per-token decode time (Swift, Python, ratio), the share of decode time outside ONNX Runtime's
# Run (target < 5 %), flow and HiFT seconds per second of audio, the predicted real-time factor, and
# fp16 against fp32. Whether fp16 graphs should be converted at pull time is the lead's decision: this
# only reports the figures.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

bench_warble

rounds="${BENCH_ROUNDS:-3}"
threads="${BENCH_THREADS:-2}"
tokens="${BENCH_TOKENS:-40}"
prompt="${BENCH_PROMPT_TOKENS:-25}"
layers="${BENCH_LAYERS:-24}"
variants=fp32
[[ "${BENCH_FP16:-1}" == 1 ]] && variants=fp32,fp16

if [[ -n "${BENCH_GRAPHS:-}" ]]; then
    graphs="$BENCH_GRAPHS"  # made before by bench_graphs.py (with these variants); kept
    [[ -f "$graphs/llm_backbone_decode_fp32.onnx" ]] || die "$graphs holds no bench_graphs.py output"
else
    graphs="$(mktemp -d "${TMPDIR:-/tmp}/warble-cosyvoice3-bench.XXXXXX")"
    trap 'rm -rf "$graphs"' EXIT
    say "making real-size graphs with random weights in $graphs ($variants, $layers layers)"
    "$python" tools/cosyvoice3/bench_graphs.py "$graphs" --layers "$layers" --variants "$variants"
fi

out="$scratch/bench-cosyvoice3/$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$out"
args=(--model-dir "$graphs" --tokens "$tokens" --prompt-tokens "$prompt" --threads "$threads" --repeats 1)
run_swift() { "$warble" bench stages cosyvoice3 "${args[@]}" --variant "$1" >> "$out/swift-$1.jsonl"; }
run_python() { "$python" tools/bench/cosyvoice3_bench.py "${args[@]}" --variant "$1" >> "$out/python-$1.jsonl"; }
for round in $(seq "$rounds"); do
    say "round $round/$rounds"
    if ((round % 2)); then run_swift fp32; run_python fp32; else run_python fp32; run_swift fp32; fi
    if [[ "$variants" == *fp16* ]]; then
        run_swift fp16
        [[ "${BENCH_PYTHON_FP16:-0}" == 1 ]] && run_python fp16
    fi
done

say "results in $out"
"$python" - "$out" "$tokens" "$prompt" "$threads" "$layers" <<'PY'
import json, statistics, sys
from pathlib import Path
out, tokens, prompt, threads, layers = Path(sys.argv[1]), *sys.argv[2:]

def load(name):
    path = out / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

def med(rows, key):
    return statistics.median(r[key] for r in rows) if rows else float("nan")

runs = {name: load(name) for name in ("swift-fp32", "python-fp32", "swift-fp16", "python-fp16")}
print(f"CosyVoice 3, real-size graphs with random weights ({layers} layers), {tokens} tokens "
      f"({int(tokens) / 25:.1f} s of audio), prompt {prompt} tokens, {threads} threads, medians of "
      f"{len(runs['swift-fp32'])} rounds")
print(f"{'':34} {'swift':>10} {'python':>10} {'ratio':>7}")
def row(label, key, scale=1.0, fmt="{:10.3f}", variant="fp32"):
    s, p = med(runs[f"swift-{variant}"], key) * scale, med(runs[f"python-{variant}"], key) * scale
    ratio = f"{s / p:7.3f}" if p == p and p else ""
    print(f"{label:34} {fmt.format(s)} {fmt.format(p) if p == p else '':>10} {ratio}")
row("per-token decode (ms)", "per_token_ms", fmt="{:10.1f}")
row("prefill + first token (s)", "first_token_s")
row("decode time outside ORT Run (%)", "decode_outside_run", 100, "{:10.2f}")
row("flow (s per s of audio)", "flow_s_per_audio_s")
row("flow outside ORT Run (%)", "flow_outside_run", 100, "{:10.2f}")
row("HiFT (s per s of audio)", "hift_s_per_audio_s")
row("HiFT outside ORT Run (%)", "hift_outside_run", 100, "{:10.2f}")
row("predicted RTF", "predicted_rtf", fmt="{:10.2f}")
outside = med(runs["swift-fp32"], "decode_outside_run") * 100
print(f"  Swift decode time outside ORT: {outside:.2f} % (target < 5 %: {'met' if outside < 5 else 'NOT met'})")
s, p = med(runs["swift-fp32"], "per_token_ms"), med(runs["python-fp32"], "per_token_ms")
print(f"  per-token decode Swift/Python = {s / p:.3f} ({'Swift faster' if s < p else 'Swift slower'})")
if runs["swift-fp16"]:
    print("fp16 variant (Swift):")
    for label, key, fmt in (("per-token decode (ms)", "per_token_ms", "{:.1f}"),
                            ("flow (s per s of audio)", "flow_s_per_audio_s", "{:.3f}"),
                            ("predicted RTF", "predicted_rtf", "{:.2f}")):
        a, b = med(runs["swift-fp16"], key), med(runs["swift-fp32"], key)
        print(f"  {label:32} fp16 {fmt.format(a):>8}  fp32 {fmt.format(b):>8}  fp16/fp32 {a / b:.3f}")
    ratios = [f"{label} x{med(runs['swift-fp16'], key) / med(runs['swift-fp32'], key):.2f}"
              for label, key in (("decode", "per_token_ms"), ("flow", "flow_s"), ("HiFT", "hift_s"))]
    rtf = med(runs["swift-fp16"], "predicted_rtf") / med(runs["swift-fp32"], "predicted_rtf")
    verdict = "SLOWER than" if rtf > 1.02 else ("faster than" if rtf < 0.98 else "within 2 % of")
    print(f"  fp16 graphs run {verdict} fp32 on this CPU overall (RTF x{rtf:.2f}; fp16/fp32: {', '.join(ratios)}; "
          "HiFT is fp32 in both). Converting fp16 at pull time is the lead engineer's decision; nothing converts here.")
PY
