"""16-bit PCM WAV files of the fixtures and benchmarks (each caller quantises its samples its own way)."""
import os
import wave

import numpy as np


def write_pcm16(target, pcm, rate):
    """Writes int16 samples, shape (n,) or frames (n, channels), to a path or a binary file object."""
    pcm = np.asarray(pcm)
    with wave.open(os.fspath(target) if isinstance(target, (str, os.PathLike)) else target, "wb") as w:
        w.setnchannels(1 if pcm.ndim == 1 else pcm.shape[1])
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.astype("<i2").tobytes())
