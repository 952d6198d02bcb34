#!/usr/bin/env python3
"""Writes the fixtures for the server's real-Whisper tests (area server) into OUTDIR.

    make_fixtures.py OUTDIR [--threads N]

Reference: faster-whisper 1.2.1 (pinned in tools/whisper/requirements.txt) on the ct2 directory
tools/whisper/install.sh keeps ($WARBLE_HOME/cache/whisper-ct2/whisper-tiny.en/), with its default
options (beam 5, temperature fallback, timestamps), which are what the server's transcription routes use.
Writes:
  prompt.wav    an espeak-ng sentence with names Whisper gets wrong unaided (16 kHz mono 16-bit)
  prompt.json   {model, text, prompt, without: [segments], with: [segments]}: faster-whisper's
                segments (start, end, text, tokens) without and with initial_prompt
"""

from __future__ import annotations

import argparse
import json
import os
import sys


from tools.common.threads import maker_threads  # noqa: E402
from tools.whisper.check_parity import model_paths  # noqa: E402
from tools.whisper.clips import read_wav, synthesize  # noqa: E402

MODEL = "whisper-tiny.en"
TEXT = "Warble speaks with Kokoro and Piper voices on ONNX Runtime."
PROMPT = "Warble, Kokoro, Piper, ONNX Runtime."


def segments_json(segments) -> list[dict]:
    return [{"start": round(s.start, 3), "end": round(s.end, 3), "text": s.text, "tokens": list(s.tokens)}
            for s in segments]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--threads", type=int, default=maker_threads())
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)

    from faster_whisper import WhisperModel

    wav = os.path.join(args.outdir, "prompt.wav")
    synthesize("en-us", TEXT, wav)
    audio = read_wav(wav)
    _, ct2_dir = model_paths(MODEL)
    fw = WhisperModel(ct2_dir, device="cpu", compute_type="float32", cpu_threads=args.threads)
    without, _ = fw.transcribe(audio)
    with_prompt, _ = fw.transcribe(audio, initial_prompt=PROMPT)
    result = {
        "about": "faster-whisper default transcription with and without initial_prompt (tools/server/make_fixtures.py)",
        "model": MODEL, "text": TEXT, "prompt": PROMPT,
        "without": segments_json(list(without)), "with": segments_json(list(with_prompt)),
    }
    if [s["tokens"] for s in result["without"]] == [s["tokens"] for s in result["with"]]:
        sys.exit("make_fixtures: the prompt does not change faster-whisper's tokens; the test could not tell it is used")
    with open(os.path.join(args.outdir, "prompt.json"), "w") as f:
        json.dump(result, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {wav} and prompt.json")


if __name__ == "__main__":
    main()
