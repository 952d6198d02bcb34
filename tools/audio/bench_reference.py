#!/usr/bin/env python3
"""Python side of scripts/bench-audio.sh.

  bench_reference.py inputs DIR        writes 60 s test signals (x16.f32, x24.f32, x44.f32)
  bench_reference.py time DIR RUNS     prints "<name> <median wall ms> <median CPU ms>" per case, same
                                       names as warble-audio-bench (CPU: the process's CPU time)
  bench_reference.py soxr              python-soxr's libsoxr version and the engine of each resampling case
"""
import os
import sys
import time

import numpy as np

from tools.audio.make_fixtures import kaldi_fbank, matcha_mel, speechlike, whisper_log_mel

import librosa
import soxr


def inputs(directory):
    os.makedirs(directory, exist_ok=True)
    for name, rate, seed in [("x16", 16000, 11), ("x24", 24000, 12), ("x44", 44100, 13)]:
        speechlike(rate, 60.0, seed).astype("<f4").tofile(os.path.join(directory, name + ".f32"))


def timed(name, runs, body):
    body()
    wall, cpu = [], []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        body()
        cpu.append((time.process_time() - cpu_start) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    wall.sort()
    cpu.sort()
    print(name, f"{wall[len(wall) // 2]:.3f}", f"{cpu[len(cpu) // 2]:.3f}", flush=True)


def soxr_info():
    print("libsoxr", soxr.__libsoxr_version__)
    for name, rate in [("resample_44k_16k", 44100), ("resample_24k_16k", 24000)]:
        # ResampleStream builds the same libsoxr object as soxr.resample (HQ, float32).
        print(name, "engine", soxr.ResampleStream(rate, 16000, 1, dtype="float32", quality="HQ")._csoxr.engine())


def run(directory, runs):
    load = lambda n: np.fromfile(os.path.join(directory, n + ".f32"), dtype="<f4")
    x16, x24, x44 = load("x16"), load("x24"), load("x44")
    filters = librosa.filters.mel(sr=16000, n_fft=400, n_mels=80)
    hift = librosa.stft(x24, n_fft=16, hop_length=4, window="hann", center=True, pad_mode="reflect")

    timed("stft_16k_400_160", runs, lambda: librosa.stft(x16, n_fft=400, hop_length=160, window="hann", center=True, pad_mode="reflect"))
    timed("mel_16k_80", runs, lambda: filters @ (np.abs(librosa.stft(x16, n_fft=400, hop_length=160, center=True, pad_mode="reflect")) ** 2))
    timed("whisper_logmel_80", runs, lambda: whisper_log_mel(x16, 80))
    timed("matcha_mel_24k", runs, lambda: matcha_mel(x24))
    timed("kaldi_fbank_80", runs, lambda: kaldi_fbank(x16))
    timed("istft_24k_16_4", runs, lambda: librosa.istft(hift, hop_length=4, n_fft=16, window="hann", center=True, length=len(x24)))
    timed("resample_44k_16k", runs, lambda: soxr.resample(x44, 44100, 16000, quality="HQ"))
    timed("resample_24k_16k", runs, lambda: soxr.resample(x24, 24000, 16000, quality="HQ"))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "inputs":
        inputs(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "time":
        run(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 2 and sys.argv[1] == "soxr":
        soxr_info()
    else:
        sys.exit(__doc__)
