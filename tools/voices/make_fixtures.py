#!/usr/bin/env python3
"""Writes the goldens of area voices into OUTDIR: Piper's reference audio and the speaker embedder's.

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
cases: [{text, phonemes, ids, samples: file}]} and one raw little-endian float32 file per case; a
two-speaker voice (two-speakers/); and the speaker embedder's golden data (embedder/, by
make_embedder_fixtures.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np


from tools.common.threads import maker_threads  # noqa: E402
from tools.ttsbench.references import session, warble_home  # noqa: E402

from tools.voices import make_embedder_fixtures  # noqa: E402

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
    parser.add_argument("--threads", type=int, default=maker_threads())
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
    write_two_speakers(model_dir, config, out / "two-speakers", args.threads, cases[0]["text"])
    make_embedder_fixtures.write(out / "embedder", args.threads)


def write_two_speakers(model_dir: Path, config: dict, out: Path, threads: int, text: str) -> None:
    """A two-speaker Piper voice as Piper ships one (two-speakers.onnx with two-speakers.onnx.json,
    speaker_id_map {alice: 0, bob: 1}), made from the installed single-speaker graph by adding the
    `sid` input multi-speaker voices have: the audio is scaled by 1 + sid / 2, so that each speaker's
    audio is known. The reference is piper-tts's own multi-speaker path (SynthesisConfig.speaker_id,
    noise 0) for speaker bob: two-speakers-bob.f32."""
    import onnx
    from onnx import TensorProto, helper
    from piper.config import PiperConfig, SynthesisConfig
    from piper.voice import PiperVoice

    out.mkdir(parents=True, exist_ok=True)
    graph_model = onnx.load(str(model_dir / "model.onnx"))
    graph = graph_model.graph
    output = graph.output[0].name
    # The single-speaker export names its phoneme embedding "sid": renamed, so the input can have the name.
    for initializer in graph.initializer:
        if initializer.name == "sid":
            initializer.name = "ws_phoneme_embedding"
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name == "sid":
                node.input[i] = "ws_phoneme_embedding"
    graph.input.append(helper.make_tensor_value_info("sid", TensorProto.INT64, [1]))
    graph.initializer.extend([helper.make_tensor("ws_half", TensorProto.FLOAT, [], [0.5]),
                              helper.make_tensor("ws_one", TensorProto.FLOAT, [], [1.0])])
    for node in graph.node:
        for i, name in enumerate(node.output):
            if name == output:
                node.output[i] = "ws_unscaled"
    graph.node.extend([
        helper.make_node("Cast", ["sid"], ["ws_sid"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["ws_sid", "ws_half"], ["ws_half_sid"]),
        helper.make_node("Add", ["ws_half_sid", "ws_one"], ["ws_gain"]),
        helper.make_node("Mul", ["ws_unscaled", "ws_gain"], [output]),
    ])
    onnx.checker.check_model(graph_model)
    onnx.save(graph_model, str(out / "two-speakers.onnx"))
    config = dict(config, num_speakers=2, speaker_id_map={"alice": 0, "bob": 1})
    (out / "two-speakers.onnx.json").write_text(json.dumps(config, indent=1, ensure_ascii=False) + "\n")

    voice = PiperVoice(session=session(out / "two-speakers.onnx", threads), config=PiperConfig.from_dict(config))
    ids = voice.phonemes_to_ids(voice.phonemize(text)[0])
    bob = np.asarray(voice.phoneme_ids_to_audio(ids, SynthesisConfig(speaker_id=1, noise_scale=0.0, noise_w_scale=0.0)),
                     dtype="<f4").reshape(-1)
    alice = np.asarray(voice.phoneme_ids_to_audio(ids, SynthesisConfig(speaker_id=0, noise_scale=0.0, noise_w_scale=0.0)),
                       dtype="<f4").reshape(-1)
    if not np.allclose(bob, alice * 1.5, atol=1e-5):
        sys.exit("make_fixtures: piper-tts did not feed the speaker id to the two-speaker voice")
    bob.tofile(out / "two-speakers-bob.f32")
    (out / "two-speakers.json").write_text(json.dumps({"text": text, "speaker": "bob", "samples": "two-speakers-bob.f32",
                                                       "length_scale": config["inference"]["length_scale"]}) + "\n")
    print(f"wrote {out}/two-speakers.onnx and its reference for speaker bob")


if __name__ == "__main__":
    main()
