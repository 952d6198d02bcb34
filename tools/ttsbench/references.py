"""The Python references of the speech benchmarks, loaded on Warble's own model files.

Piper: piper-tts's PiperVoice on $WARBLE_HOME/models/piper-en_US-joe-medium (config.json is the
.onnx.json). Kokoro: kokoro-onnx's Kokoro on $WARBLE_HOME/models/kokoro-v1.0-int8, with a voices
.npz built from our voices/*.f32 (each 510 x 256 float32 -> (510, 1, 256), the layout of
voices-v1.0.bin). Sessions are built here with an explicit intra-op thread count so that both
sides use the same number of threads.
"""

import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort


def warble_home() -> Path:
    home = os.environ.get("WARBLE_HOME")
    if home:
        return Path(home)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local/share")
    return Path(data) / "warble"


def session(model: Path, threads: int) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    # The exact int8 kernels, as Warble asks for (SessionOptions.preciseQuantizedMatMul): the default U8S8 ones
    # saturate on an x86-64 CPU without VNNI, and the goldens would hold that error.
    options.add_session_config_entry("session.x64quantprecision", "1")
    return ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])


class TimedSession:
    """An InferenceSession whose run() adds up the wall time spent inside it."""

    def __init__(self, inner: ort.InferenceSession):
        self._inner = inner
        self.runs = 0
        self.seconds = 0.0

    def run(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return self._inner.run(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start
            self.runs += 1

    def reset(self):
        self.runs, self.seconds = 0, 0.0

    def __getattr__(self, name):
        return getattr(self._inner, name)


def kokoro_voices_npz(model_dir: Path, out: Path) -> Path:
    manifest = json.loads((model_dir / "manifest.json").read_text())
    config = manifest["config"]
    rows, width = config.get("styleRows", 510), config.get("styleWidth", 256)
    arrays = {}
    for name, rel in config["voices"].items():
        values = np.fromfile(model_dir / rel, dtype="<f4")
        arrays[name] = values.reshape(rows, 1, width)
    np.savez(out, **arrays)
    return out


class PiperReference:
    sample_rate = 22050

    def __init__(self, threads: int, model_id: str = "piper-en_US-joe-medium"):
        from piper.config import PiperConfig
        from piper.voice import PiperVoice

        model_dir = warble_home() / "models" / model_id
        config = json.loads((model_dir / "config.json").read_text())
        self.timed = TimedSession(session(model_dir / "model.onnx", threads))
        self.voice = PiperVoice(session=self.timed, config=PiperConfig.from_dict(config))
        self.sample_rate = self.voice.config.sample_rate

    def stream(self, text: str):
        """Audio chunks (float32 arrays) as piper-tts yields them: one per sentence."""
        for chunk in self.voice.synthesize(text):
            yield chunk.audio_float_array

    def speak(self, text: str) -> np.ndarray:
        parts = list(self.stream(text))
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)


class KokoroReference:
    sample_rate = 24000

    def __init__(self, threads: int, voice: str = "jm_kumo", model_id: str = "kokoro-v1.0-int8"):
        from kokoro_onnx import Kokoro

        model_dir = warble_home() / "models" / model_id
        self._tmp = tempfile.TemporaryDirectory()
        voices = kokoro_voices_npz(model_dir, Path(self._tmp.name) / "voices.npz")
        self.timed = TimedSession(session(model_dir / "model.onnx", threads))
        self.kokoro = Kokoro.from_session(self.timed._inner, str(voices), vocab_config=str(model_dir / "vocab.json"))
        self.kokoro.sess = self.timed
        self.voice = voice.removeprefix("kokoro-")

    def stream(self, text: str):
        """Audio chunks as kokoro-onnx's create_stream yields them (batches of up to 510 phonemes)."""
        import asyncio

        queue = []

        async def first_and_rest():
            async for audio, _ in self.kokoro.create_stream(text, voice=self.voice, speed=1.0, lang="en-us"):
                queue.append(audio)
                yield audio

        agen = first_and_rest()
        loop = asyncio.new_event_loop()
        try:
            while True:
                try:
                    yield loop.run_until_complete(agen.__anext__())
                except StopAsyncIteration:
                    break
        finally:
            loop.run_until_complete(agen.aclose())
            loop.close()

    def speak(self, text: str) -> np.ndarray:
        audio, _ = self.kokoro.create(text, voice=self.voice, speed=1.0, lang="en-us")
        return np.asarray(audio, dtype=np.float32)


def load(engine: str, threads: int, voice: str | None = None):
    if engine == "piper":
        return PiperReference(threads)
    if engine == "kokoro":
        return KokoroReference(threads, voice or "jm_kumo")
    raise SystemExit(f"unknown engine {engine!r}; accepted: piper, kokoro")
