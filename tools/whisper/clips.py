"""Short speech clips made with espeak-ng, as 16 kHz mono 16-bit WAV (deterministic)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import wave

import numpy as np

from tools.common.wav import write_pcm16

# (name, espeak-ng voice, language code, text)
CLIPS = [
    ("en_fox", "en-us", "en", "The quick brown fox jumps over the lazy dog. It was a sunny day in the park."),
    ("en_weather", "en-gb", "en", "Tomorrow will be cloudy with light rain in the morning, clearing up by the afternoon."),
    ("en_numbers", "en-us", "en", "Please call me back at seven thirty. The meeting has moved to room number twelve."),
    ("de_bahnhof", "de", "de", "Der Zug nach Berlin fährt heute um acht Uhr vom Hauptbahnhof ab."),
    ("de_wetter", "de", "de", "Morgen wird es in München sonnig und warm, am Abend gibt es vielleicht ein Gewitter."),
]


def synthesize(voice: str, text: str, path: str) -> None:
    """Writes the clip to `path` as 16 kHz mono int16 WAV."""
    if shutil.which("espeak-ng") is None:
        raise RuntimeError("espeak-ng is not installed (apt-get install espeak-ng)")
    from faster_whisper.audio import decode_audio  # resamples with PyAV, as faster-whisper reads files

    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.wav")
        subprocess.run(["espeak-ng", "-v", voice, "-s", "160", "-w", raw, text], check=True)
        audio = decode_audio(raw, sampling_rate=16000)
    write_pcm16(path, np.clip(np.round(audio * 32768.0), -32768, 32767), 16000)


def read_wav(path: str) -> np.ndarray:
    """16-bit mono WAV -> float32 in [-1, 1) (sample / 32768, as faster-whisper's decoder gives)."""
    with wave.open(path, "rb") as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1 or w.getframerate() != 16000:
            raise ValueError(f"{path}: expected 16 kHz mono 16-bit WAV")
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return data.astype(np.float32) / 32768.0


def make_clips(directory: str, clips=CLIPS) -> list[dict]:
    os.makedirs(directory, exist_ok=True)
    made = []
    for name, voice, lang, text in clips:
        path = os.path.join(directory, f"{name}.wav")
        synthesize(voice, text, path)
        made.append({"name": name, "voice": voice, "language": lang, "text": text, "path": path})
    return made
