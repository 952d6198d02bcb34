"""Warble against sherpa-onnx on one recogniser's graphs (a family's bench.py makes them and sherpa-onnx's recogniser):
the same speech-like clips, threads and runs; seconds per second of audio for each, their ratio, Warble's time outside
ONNX Runtime, and whether both give the same text."""
import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from tools.sherpa.speechlike import read_wav, speechlike, write_wav


CLIPS = {"bench10s": 10.0, "bench60s": 60.0}


def arguments(description: str) -> argparse.ArgumentParser:
    """The options every family's bench.py takes: WARBLE_BINARY --work DIR [--threads 2] [--runs 3]."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("warble")
    parser.add_argument("--work", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    return parser


def model_home(work: Path) -> Path:
    """The benchmark's WARBLE_HOME (WORK/home), its lib/ linked to the installed ONNX Runtime."""
    home = work / "home"
    (home / "models").mkdir(parents=True, exist_ok=True)
    real_home = Path(os.environ.get("WARBLE_HOME") or Path.home() / ".local/share/warble")
    if not (home / "lib").exists():
        (home / "lib").symlink_to(real_home / "lib")
    return home


def compare(args: argparse.Namespace, home: Path, model_id: str, recognizer, about: dict) -> int:
    """Times sherpa-onnx's `recognizer` and `warble bench asr --model model_id` (installed in `home`) on the clips;
    prints the figures (with `about` first) as JSON; 0 when both give the same text."""

    work = Path(args.work)
    clips = []
    for name, seconds in CLIPS.items():
        path = work / f"{name}.wav"
        if not path.exists():
            write_wav(path, speechlike(seconds, 16000, 40 + len(clips)), 16000)
        clips.append(path)
    audio = sum(CLIPS.values())

    # sherpa-onnx: the same graphs, threads, clips and runs (median run of each clip).
    sherpa = 0.0
    for path in clips:
        samples, rate = read_wav(path)

        def once():
            start = time.perf_counter()
            stream = recognizer.create_stream()
            stream.accept_waveform(rate, samples)
            recognizer.decode_stream(stream)
            return time.perf_counter() - start, stream.result.text
        _, reference_text = once()
        sherpa += statistics.median(once()[0] for _ in range(args.runs))

    env = dict(os.environ, WARBLE_HOME=str(home))
    out = subprocess.run([args.warble, "bench", "asr", "--model", model_id, "--threads", str(args.threads),
                          "--runs", str(args.runs)] + [str(c) for c in clips], env=env, check=True, capture_output=True, text=True)
    warble = json.loads(out.stdout)
    text = subprocess.run([args.warble, "transcribe", "--no-history", "--model", model_id, str(clips[-1])], env=env,
                          check=True, capture_output=True, text=True).stdout.strip()
    result = dict(about)
    result.update({
        "threads": args.threads, "runs": args.runs, "audio_s": audio,
        "sherpa_onnx_s_per_audio_s": sherpa / audio, "warble_s_per_audio_s": warble["seconds_per_audio_second"],
        "warble_over_sherpa": warble["transcribe_s"] / sherpa,
        "warble_outside_ort_s": warble["outside_run_s"], "warble_outside_ort_share": warble["outside_run_s"] / warble["transcribe_s"],
        "warble_load_s": warble["load_s"], "warble_peak_rss_mib": warble["peak_rss_kib"] / 1024,
        "same_text_as_sherpa_onnx": text == reference_text,
    })
    print(json.dumps(result, indent=1))
    return 0 if result["same_text_as_sherpa_onnx"] else 1
