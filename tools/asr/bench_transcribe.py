#!/usr/bin/env python3
"""Times `warble transcribe` against faster-whisper on the same 3-minute clip, model, threads and
options (beam 5, temperature fallback, timestamps), alternating them for several rounds.

    bench_transcribe.py WARBLE_BIN MODEL_ID [--threads 2] [--rounds 3] [--variants f32,int8]

Variants, each a pair measured in the same rounds:
  f32   warble MODEL_ID (f32 weights)           vs faster-whisper compute_type float32
  int8  warble MODEL_ID-int8 (ORT dynamic int8) vs faster-whisper compute_type int8
Every round runs warble f32, faster-whisper f32, warble int8, faster-whisper int8 in turn. Wall time, CPU
time (user + system, steadier than wall time on a busy machine, though spinning thread pools count) and
peak resident memory (ru_maxrss of each child process, model loading included) are measured for each
run; prints medians, the real-time factor (wall / audio seconds) and the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import wave

HERE = os.path.dirname(os.path.abspath(__file__))

import numpy as np  # noqa: E402

from tools.common.wav import write_pcm16  # noqa: E402
from tools.whisper.check_parity import model_paths, warble_home  # noqa: E402

FW_RUNNER = """
import sys
from faster_whisper import WhisperModel
ct2, path, threads, compute = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
model = WhisperModel(ct2, device="cpu", compute_type=compute, cpu_threads=threads)
segments, info = model.transcribe(path, language="en")
text = "".join(s.text for s in segments)
print(len(text.split()))
"""


def bench_clip(out: str) -> str:
    """180 s of 16 kHz speech made from the asr fixtures' long clip (repeated if shorter)."""
    source = os.path.join(HERE, "..", "..", "Tests", "Fixtures", "generated", "asr", "long.wav")
    if not os.path.isfile(source):
        sys.exit(f"bench_transcribe: {source} is missing; run tools/asr/make_fixtures.py Tests/Fixtures/generated/asr")
    with wave.open(source, "rb") as w:
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    data = np.tile(data, 180 * 16000 // data.size + 1)[:180 * 16000]
    path = os.path.join(out, "bench-3min.wav")
    write_pcm16(path, data, 16000)
    return path


def run_measured(command: list[str], env: dict | None = None) -> tuple[float, float, float, str]:
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 2)
        out = os.open(os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bench-asr-{os.getpid()}.out"),
                      os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out, 1)
        os.execvpe(command[0], command, env or os.environ)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bench-asr-{pid}.out")
    with open(path, encoding="utf-8", errors="replace") as f:
        output = f.read()
    os.remove(path)
    if status != 0:
        sys.exit(f"bench_transcribe: {' '.join(command)} exited with status {status}")
    return wall, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime, output


VARIANTS = {"f32": ("", "float32"), "int8": ("-int8", "int8")}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("warble")
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", default="f32,int8", help="comma-separated: f32, int8")
    parser.add_argument("--work", default="/tmp")
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    if not variants or any(v not in VARIANTS for v in variants):
        parser.error(f"--variants takes f32 and/or int8, got {args.variants!r}")
    _, ct2_dir = model_paths(args.model)
    for v in variants:
        model_id = args.model + VARIANTS[v][0]
        onnx_dir = os.path.join(warble_home(), "models", model_id)
        if not os.path.isfile(os.path.join(onnx_dir, "manifest.json")):
            sys.exit(f"bench_transcribe: {onnx_dir} is missing; run tools/whisper/install.sh {model_id}")
    clip = bench_clip(args.work)
    seconds = 180.0
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    commands = {}
    for v in variants:
        suffix, compute = VARIANTS[v]
        commands[("warble", v)] = [args.warble, "transcribe", "--model", args.model + suffix, "--language", "en",
                                   "--threads", str(args.threads), "--quiet", clip]
        commands[("faster-whisper", v)] = [sys.executable, "-c", FW_RUNNER, ct2_dir, clip, str(args.threads), compute]
    results = {key: [] for key in commands}
    for r in range(args.rounds):
        for key, command in commands.items():
            wall, rss, cpu, out = run_measured(command, env)
            results[key].append((wall, rss, cpu))
            words = len(out.split()) if key[0] == "warble" else out.strip()
            print(f"round {r + 1}/{args.rounds} {key[0]:<14} {key[1]:<4} {wall:7.2f} s  {cpu:7.2f} s CPU  {rss:7.1f} MiB  ({words} words)",
                  file=sys.stderr, flush=True)
    med = {key: tuple(statistics.median(x[i] for x in v) for i in range(3)) for key, v in results.items()}
    print(f"model {args.model}, {args.threads} threads, {seconds:.0f} s of audio, beam 5 (defaults); "
          f"medians of {args.rounds} alternating rounds")
    print(f"{'':<22}{'wall s':>9}{'RTF':>8}{'CPU s':>9}{'peak MiB':>10}")
    for v in variants:
        suffix, compute = VARIANTS[v]
        for side, label in (("warble", f"warble {v}"), ("faster-whisper", f"faster-whisper {compute}")):
            w, m, c = med[(side, v)]
            print(f"{label:<22}{w:>9.2f}{w / seconds:>8.3f}{c:>9.2f}{m:>10.1f}")
    for v in variants:
        (sw, sm, sc), (pw, pm, pc) = med[("warble", v)], med[("faster-whisper", v)]
        target = " (target <= 1.0)" if v == "f32" else ""
        print(f"{v}: wall time warble/faster-whisper {sw / pw:.2f}x{target}; CPU time {sc / pc:.2f}x; "
              f"peak memory {sm / pm:.2f}x")
    if len(variants) == 2:
        (s32, m32, _), (s8, m8, _) = med[("warble", "f32")], med[("warble", "int8")]
        (p32, _, _), (p8, _, _) = med[("faster-whisper", "f32")], med[("faster-whisper", "int8")]
        print(f"int8 speed-up over f32: warble {s32 / s8:.2f}x, faster-whisper {p32 / p8:.2f}x; "
              f"warble int8 memory {m8 / m32:.2f}x of f32")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
