#!/usr/bin/env python3
"""Writes the Piper reference golden (area voices) into OUTDIR.

    make_fixtures.py OUTDIR [--threads N]

Reference: piper-tts 1.8.0 (pinned in tools/ttsbench/requirements.txt), its own PiperVoice on the
installed voice's original whole graph ($WARBLE_HOME/models/piper-en_US-joe-medium/model.onnx and
config.json; Warble itself runs the encoder/decoder split of that graph the set-up made), with
onnxruntime 1.31.1 (tools/requirements.txt). For each sentence piper-tts phonemizes it with its own
espeak-ng, maps the phonemes to ids (PiperVoice.phonemes_to_ids) and runs the model with
noise_scale = noise_w = 0, so the audio is deterministic, and the voice's own length_scale.
The audio is piper-tts's phoneme_ids_to_audio: the model's float output, before the normalisation
and int16 conversion of synthesize().

Writes piper.json: {model, about, noise_scale, noise_w, length_scale, sample_rate,
cases: [{text, phonemes, ids, samples: file}]} and one raw little-endian float32 file per case.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ttsbench"))

from references import session, warble_home  # noqa: E402

MODEL = "piper-en_US-joe-medium"
# Short and varied: a question, punctuation inside the sentence, stress and a diphthong-heavy line.
TEXTS = [
    "The quick brown fox jumps over the lazy dog.",
    "Is it raining in Paris, or only here?",
    "Warble speaks on your own machine!",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)

    from piper.config import PiperConfig, SynthesisConfig
    from piper.voice import PiperVoice

    model_dir = warble_home() / "models" / MODEL
    if not (model_dir / "model.onnx").is_file():
        sys.exit(f"make_fixtures: {model_dir}/model.onnx is missing: run scripts/setup.sh")
    config = json.loads((model_dir / "config.json").read_text())
    voice = PiperVoice(session=session(model_dir / "model.onnx", args.threads), config=PiperConfig.from_dict(config))
    syn = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)

    cases = []
    for number, text in enumerate(TEXTS):
        sentences = voice.phonemize(text)
        if len(sentences) != 1:
            sys.exit(f"make_fixtures: piper-tts split {text!r} into {len(sentences)} sentences; use one sentence")
        phonemes = sentences[0]
        if any(len(p) != 1 for p in phonemes):
            sys.exit(f"make_fixtures: a phoneme of {text!r} is not one code point: {phonemes}")
        ids = voice.phonemes_to_ids(phonemes)
        audio = np.asarray(voice.phoneme_ids_to_audio(ids, syn), dtype="<f4").reshape(-1)
        again = np.asarray(voice.phoneme_ids_to_audio(ids, syn), dtype="<f4").reshape(-1)
        if not np.array_equal(audio, again):
            sys.exit("make_fixtures: piper-tts is not deterministic with noise scales 0")
        name = f"piper-{number}.f32"
        audio.tofile(out / name)
        cases.append({"text": text, "phonemes": "".join(phonemes), "ids": [int(i) for i in ids], "samples": name})

    golden = {
        "about": "piper-tts 1.8.0 phoneme_ids_to_audio on the whole model.onnx, noise scales 0 "
                 "(tools/voices/make_fixtures.py)",
        "model": MODEL,
        "noise_scale": 0.0,
        "noise_w": 0.0,
        "length_scale": voice.config.length_scale,
        "sample_rate": voice.config.sample_rate,
        "cases": cases,
    }
    with open(out / "piper.json", "w") as f:
        json.dump(golden, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {out}/piper.json and {len(cases)} audio files")


if __name__ == "__main__":
    main()
