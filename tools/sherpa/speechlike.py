"""Seeded speech-like test signals (syllable-like bursts and pauses) and their 16-bit WAV files: the clips of the
SenseVoice and Parakeet fixtures and benchmarks."""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from tools.common.wav import write_pcm16


def speechlike(seconds: float, rate: int, seed: int) -> np.ndarray:
    """Syllable-like bursts: voiced harmonics with moving pitch and formant-ish noise, separated by pauses."""
    rng = np.random.default_rng(seed)
    n = int(seconds * rate)
    out = np.zeros(n, np.float64)
    t = 0
    while t < n:
        length = int(rng.uniform(0.08, 0.35) * rate)
        gap = int(rng.choice([rng.uniform(0.02, 0.08), rng.uniform(0.2, 0.6)], p=[0.8, 0.2]) * rate)
        end = min(n, t + length)
        k = np.arange(end - t)
        f0 = rng.uniform(90, 240) * (1 + 0.2 * np.sin(2 * np.pi * k / rate * rng.uniform(1, 4)))
        phase = 2 * np.pi * np.cumsum(f0) / rate
        voiced = sum(np.sin(h * phase) * rng.uniform(0.1, 1) / h for h in range(1, 12))
        noise = rng.normal(0, rng.uniform(0.02, 0.3), end - t)
        envelope = np.sin(np.pi * k / max(1, end - t - 1)) ** 2
        out[t:end] = (voiced * rng.uniform(0.1, 0.5) + noise) * envelope
        t = end + gap
    out += rng.normal(0, 0.002, n)
    return np.clip(out * 0.5, -1, 1).astype(np.float32)


def write_wav(path: Path, samples: np.ndarray, rate: int) -> None:
    write_pcm16(path, np.round(np.clip(samples, -1, 1) * 32767), rate)


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    with wave.open(str(path), "rb") as w:
        rate = w.getframerate()
        pcm = np.frombuffer(w.readframes(w.getnframes()), "<i2")
    return pcm.astype(np.float32) / 32768, rate
