#!/usr/bin/env python3
"""Kokoro v1.0 int8 under the alternatives of issue #44 item 2 that change what runs, on kokoro-onnx's own
graph (model.onnx of the installed kokoro-v1.0-int8) and its tokenizer, ONNX Runtime's Python binding:
one process, the variants alternating (order flipped each round), medians of the rounds.

    .venv/bin/python tools/bench/kokoro_options.py [--rounds 3] [--sentences 6] [--voice jm_kumo]

Variants, each speaking the first N sentences of tools/ttsbench/texts.json one call a sentence:
- 1 core:  `one`            intra-op 1 (the baseline of this budget)
           `no-arena`       the same without the CPU memory arena
           `no-pattern`     the same without memory patterns
           `pairs`          two sentences a call (tokens joined by a space), half the calls
- 2 cores: `intra2`         intra-op 2, a sentence at a time, threads spinning after a run (ORT's default)
           `intra2-stop`    the same with session.force_spinning_stop (what Warble sets)
           `inter2`         parallel executor, inter-op 2 x intra-op 1
           `overlap`        two sessions of intra-op 1, sentence N+1 rendered beside sentence N (Warble's
                            lookahead, at sentence level)
and the load of the graph: from model.onnx (all optimisations, every load) against from an ORT-format
file saved after the hardware-independent optimisations ("the optimisation level saved to disk").
Prints a table: median seconds for the sentences (or the load), audio seconds, ratio to the budget's
baseline. Nothing here is Warble's code: it says which levers move ONNX Runtime's time on this graph.
"""
import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.ttsbench.references import kokoro_voices_npz, warble_home  # noqa: E402


def options(intra=1, inter=1, arena=True, pattern=True, spin_stop=False, parallel=False):
    o = ort.SessionOptions()
    o.intra_op_num_threads = intra
    o.inter_op_num_threads = inter
    o.enable_cpu_mem_arena = arena
    o.enable_mem_pattern = pattern
    o.log_severity_level = 3
    o.add_session_config_entry("session.x64quantprecision", "1")
    if spin_stop:
        o.add_session_config_entry("session.force_spinning_stop", "1")
    if parallel:
        o.execution_mode = ort.ExecutionMode.ORT_PARALLEL
    return o


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=6)
    parser.add_argument("--voice", default="jm_kumo")
    args = parser.parse_args()
    from kokoro_onnx import Kokoro

    model_dir = warble_home() / "models" / "kokoro-v1.0-int8"
    model = model_dir / "model.onnx"
    scratch = tempfile.TemporaryDirectory()
    voices = kokoro_voices_npz(model_dir, Path(scratch.name) / "voices.npz")
    kokoro = Kokoro.from_session(ort.InferenceSession(str(model), options(), providers=["CPUExecutionProvider"]),
                                 str(voices), vocab_config=str(model_dir / "vocab.json"))
    style_table = kokoro.get_voice_style(args.voice)
    texts = json.loads((Path(__file__).resolve().parents[2] / "tools/ttsbench/texts.json").read_text())["sentences"]
    texts = texts[:args.sentences]
    tokens = [kokoro.tokenizer.tokenize(kokoro.tokenizer.phonemize(t, "en-us")) for t in texts]
    space = kokoro.tokenizer.tokenize(" ")
    pairs = [tokens[i] + space + tokens[i + 1] if i + 1 < len(tokens) else tokens[i] for i in range(0, len(tokens), 2)]
    input_name = kokoro.sess.get_inputs()[0].name

    def feeds(ids):
        return {input_name: np.array([[0, *ids, 0]], dtype=np.int64),
                "style": np.asarray(style_table[min(len(ids), len(style_table)) - 1], dtype=np.float32),
                "speed": np.array([1.0], dtype=np.float32)}

    def sequential(session, batches):
        audio = 0
        for ids in batches:
            audio += session.run(None, feeds(ids))[0].size
        return audio

    def overlapped(sessions, batches):
        # Two lanes, sentence i on lane i % 2, each lane one sentence at a time (what a lookahead of one does).
        total = [0, 0]
        def lane(k):
            for ids in batches[k::2]:
                total[k] += sessions[k].run(None, feeds(ids))[0].size
        workers = [threading.Thread(target=lane, args=(k,)) for k in (0, 1)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return sum(total)

    def session(**kw):
        return ort.InferenceSession(str(model), options(**kw), providers=["CPUExecutionProvider"])

    runners = {
        "one": (1, lambda s=session(): sequential(s, tokens)),
        "no-arena": (1, lambda s=session(arena=False): sequential(s, tokens)),
        "no-pattern": (1, lambda s=session(pattern=False): sequential(s, tokens)),
        "pairs": (1, lambda s=session(): sequential(s, pairs)),
        "intra2": (2, lambda s=session(intra=2): sequential(s, tokens)),
        "intra2-stop": (2, lambda s=session(intra=2, spin_stop=True): sequential(s, tokens)),
        "inter2": (2, lambda s=session(inter=2, parallel=True): sequential(s, tokens)),
        "overlap": (2, lambda s=(session(), session()): overlapped(s, tokens)),
    }
    saved = Path(scratch.name) / "model.ort"
    save = options()
    save.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    save.optimized_model_filepath = str(saved)
    save.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(str(model), save, providers=["CPUExecutionProvider"])
    loads = {"load .onnx": model, "load .ort (saved)": saved}

    times = {name: [] for name in [*runners, *loads]}
    audio = {}
    for name, (_, run) in runners.items():  # a warm-up of every session
        audio[name] = run() / 24000
    for r in range(args.rounds):
        order = list(runners) + list(loads)
        for name in order if r % 2 == 0 else reversed(order):
            start = time.perf_counter()
            if name in runners:
                runners[name][1]()
            else:
                ort.InferenceSession(str(loads[name]), options(), providers=["CPUExecutionProvider"])
            times[name].append(time.perf_counter() - start)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)

    medians = {name: statistics.median(t) for name, t in times.items()}
    baseline = {1: medians["one"], 2: medians["intra2"]}
    print(f"Kokoro v1.0 int8, kokoro-onnx's graph, ONNX Runtime {ort.__version__}, {len(tokens)} sentences, "
          f"medians of {args.rounds} alternating rounds")
    print(f"| variant | cores | seconds | audio s | vs baseline |\n|---|---:|---:|---:|---:|")
    for name, (cores, _) in runners.items():
        print(f"| {name} | {cores} | {medians[name]:.2f} | {audio[name]:.1f} | {medians[name] / baseline[cores]:.2f} |")
    first = medians["load .onnx"]
    for name in loads:
        print(f"| {name} | 1 | {medians[name]:.2f} | – | {medians[name] / first:.2f} |")


if __name__ == "__main__":
    main()
