#!/usr/bin/env python3
"""The Python references' streaming paths, writing 16-bit PCM to standard output as each piece of
audio is produced, for `scripts/bench-first-audio.sh` (which times the first bytes).

Usage: first_audio_ref.py piper|kokoro TEXTFILE [--threads N] [--voice NAME]
Both run on the same model files as Warble ($WARBLE_HOME/models/...), with the given thread count:
- piper: piper-tts's PiperVoice.synthesize (one chunk per sentence), over our own session;
- kokoro: kokoro-onnx's Kokoro.create_stream (one chunk per batch), over our own session and voices.
"""
import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnxruntime as ort

HOME = Path(os.environ.get("WARBLE_HOME") or Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local/share") / "warble")


def session(path: Path, threads: int) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def write(audio: np.ndarray) -> None:
    pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
    sys.stdout.buffer.write(pcm)
    sys.stdout.buffer.flush()


def run_piper(text: str, threads: int) -> None:
    from piper.config import PiperConfig, SynthesisConfig
    from piper.voice import PiperVoice

    directory = HOME / "models/piper-en_US-joe-medium"
    config = PiperConfig.from_dict(json.loads((directory / "config.json").read_text()))
    voice = PiperVoice(session=session(directory / "model.onnx", threads), config=config)
    for chunk in voice.synthesize(text, SynthesisConfig(normalize_audio=False)):
        write(chunk.audio_float_array)


def run_kokoro(text: str, threads: int, voice: str) -> None:
    from kokoro_onnx import Kokoro

    directory = HOME / "models/kokoro-v1.0-int8"
    manifest = json.loads((directory / "manifest.json").read_text())
    voices = {name: np.fromfile(directory / path, dtype="<f4").reshape(510, 1, 256)
              for name, path in manifest["config"]["voices"].items()}
    with tempfile.NamedTemporaryFile(suffix=".npz") as handle:
        np.savez(handle.name, **voices)
        kokoro = Kokoro.from_session(session(directory / "model.onnx", threads), handle.name)

    async def stream() -> None:
        async for audio, _ in kokoro.create_stream(text, voice=voice, lang="en-us"):
            write(audio)

    asyncio.run(stream())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", choices=["piper", "kokoro"])
    parser.add_argument("textfile")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--voice", default="jm_kumo")
    args = parser.parse_args()
    text = Path(args.textfile).read_text()
    if args.engine == "piper":
        run_piper(text, args.threads)
    else:
        run_kokoro(text, args.threads, args.voice)


if __name__ == "__main__":
    main()
