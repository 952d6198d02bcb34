"""Warble against sherpa-onnx on one recogniser's graphs (a family's bench.py makes them and sherpa-onnx's recogniser):
the same speech-like clips, threads and runs; seconds per second of audio for each, their ratio, Warble's time outside
ONNX Runtime, and whether both give the same text (identical, or, on a graph where sherpa-onnx itself changes words when
noise far below one 16-bit step is added to the clip, as many words alike as it keeps then: see `NOISE`)."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from tools.sherpa.speechlike import read_wav, speechlike, write_wav


CLIPS = {"bench10s": 10.0, "bench60s": 60.0}
# Deep graphs of random weights can be chaotic: sherpa-onnx against itself, with noise of 1e-7 (far below one 16-bit
# step) added to the long clip, gives 0.84 of the words alike on the 43-layer SenseVoice int8 graph (its dynamic
# quantisation moves an activation by a whole step) and 0.44 on the 576-layer Parakeet f32 graphs; on SenseVoice's f32
# graph, 1.0. Warble's front end equals sherpa-onnx's within the parity tests' tolerances, not to the last bit, so a
# graph whose reference is not stable under that noise is held to the reference's own floor (measured in the same run,
# less `NOISE_MARGIN`); a stable one to identical text.
NOISE = 1e-7
NOISE_MARGIN = 0.05
# Below this floor (576-layer Parakeet int8: −0.04, more edits than words) no text can be told right from wrong.
COMPARABLE = 0.3


def word_agreement(reference: str, text: str) -> float:
    """1 − (word-level edit distance / reference words): 1.0 for identical texts."""
    a, b = reference.split(), text.split()
    previous = list(range(len(b) + 1))
    for i, word in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, other in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != other))
        previous = current
    return 1.0 - previous[-1] / max(len(a), 1)


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
    prints the figures (with `about` first) as JSON; 0 when both give the same text (or, on a graph unstable under
    `NOISE`, as many words alike as the reference keeps under it)."""

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
    noise = np.random.default_rng(0).standard_normal(len(samples)).astype(np.float32)
    stream = recognizer.create_stream()
    stream.accept_waveform(rate, samples + NOISE * noise)
    recognizer.decode_stream(stream)
    floor = word_agreement(reference_text, stream.result.text)

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
        "word_agreement_with_sherpa_onnx": round(word_agreement(reference_text, text), 4),
        "sherpa_onnx_self_agreement_with_noise": round(floor, 4),
    })
    if floor == 1.0:
        result["text_check"] = "identical" if text == reference_text else "FAILED: not the same text"
    elif floor >= COMPARABLE:
        alike = result["word_agreement_with_sherpa_onnx"] >= floor - NOISE_MARGIN
        result["text_check"] = ("as alike as" if alike else "FAILED: less alike than") + " sherpa-onnx with itself under noise"
    else:
        result["text_check"] = "not comparable on this graph: sherpa-onnx keeps too few of its own words under noise"
    print(json.dumps(result, indent=1))
    if result["text_check"].startswith("not comparable"):
        print("bench: the texts are not compared on this graph (random weights this deep are chaotic); the families' "
              "parity tests on the fixture graphs compare them token by token", file=sys.stderr)
    return 1 if result["text_check"].startswith("FAILED") else 0
