#!/usr/bin/env python3
"""Writes the SenseVoice fixtures and goldens (Tests/WarbleModelsTests/SenseVoice*Tests.swift, the pull tests,
scripts/test-cli.sh) into OUTDIR.

    tools/sensevoice/make_fixtures.py Tests/Fixtures/generated/sensevoice

Outputs:
  repo/                 laid out as csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17: model.onnx
                        (graphs.py: the export's names, dtypes, dynamic axes, metadata; toy weights),
                        model.int8.onnx (onnxruntime's quantize_dynamic on MatMul, QUInt8, as the export makes it),
                        tokens.txt
  clips/                speech-like seeded test signals: short16k.wav (6 s, 16 kHz), short44k.wav (5 s, 44.1 kHz),
                        long16k.wav (75 s, 16 kHz)
  goldens/decode.json   for every clip × {model.onnx, model.int8.onnx} × language {auto, en, zh}: what sherpa-onnx
                        2.0.1's OfflineRecognizer.from_sense_voice (its defaults: no ITN) gives on the same files:
                        token ids, text, timestamps, language/emotion/event tags
  goldens/features.json the front end of short16k.wav as sherpa-onnx computes it (kaldi-native-fbank 1.22.4 with
                        sherpa-onnx's SenseVoice options, then LFR 7/6 and CMVN in numpy), checked here to decode
                        to sherpa-onnx's tokens through ONNX Runtime
sherpa-onnx comes from tools/sensevoice/install_parity.sh (scripts/test.sh runs it first).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from tools.sensevoice import graphs  # noqa: E402
from tools.sherpa.speechlike import read_wav, speechlike, write_wav  # noqa: E402

LANGUAGES = ["auto", "en", "zh"]


def front_end(samples: np.ndarray) -> np.ndarray:
    """sherpa-onnx's SenseVoice features of 16 kHz samples: [ceil(frames/6), 560]."""
    import kaldi_native_fbank as knf
    opts = knf.FbankOptions()
    opts.frame_opts.dither = 0
    opts.frame_opts.snip_edges = True
    opts.frame_opts.samp_freq = 16000
    opts.frame_opts.window_type = "hamming"
    opts.mel_opts.num_bins = 80
    opts.mel_opts.high_freq = 0
    fbank = knf.OnlineFbank(opts)
    fbank.accept_waveform(16000, (samples * 32768).tolist())
    fbank.input_finished()
    frames = np.stack([fbank.get_frame(i) for i in range(fbank.num_frames_ready)])
    return cmvn(lfr(frames, 7, 6))


def lfr(frames: np.ndarray, window: int, shift: int) -> np.ndarray:
    """Low frame rate stacking: ceil(T/shift) outputs; the first frame repeated (window-1)/2 times on the left,
    the last one repeated past the end."""
    count = len(frames)
    left = (window - 1) // 2
    padded = np.concatenate([np.repeat(frames[:1], left, 0), frames])
    outputs = 1 + (count - 1) // shift
    rows = []
    for i in range(outputs):
        index = np.minimum(np.arange(i * shift, i * shift + window), len(padded) - 1)
        rows.append(padded[index].reshape(-1))
    return np.stack(rows)


def cmvn(features: np.ndarray) -> np.ndarray:
    neg_mean, inv_stddev = graphs.cmvn()
    return ((features + neg_mean) * inv_stddev).astype(np.float32)


def sherpa_decode(model: Path, tokens: Path, samples: np.ndarray, rate: int, language: str) -> dict:
    import sherpa_onnx
    recognizer = sherpa_onnx.OfflineRecognizer.from_sense_voice(
        model=str(model), tokens=str(tokens), num_threads=1, language="" if language == "auto" else language,
        use_itn=False, debug=False)
    stream = recognizer.create_stream()
    stream.accept_waveform(rate, samples)
    recognizer.decode_stream(stream)
    r = stream.result
    return {"text": r.text, "tokens": list(r.tokens), "timestamps": [float(t) for t in r.timestamps],
            "lang": r.lang, "emotion": r.emotion, "event": r.event}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.exit("usage: make_fixtures.py OUTDIR")
    try:
        import sherpa_onnx  # noqa: F401
    except ImportError:
        sys.exit("tools/sensevoice/make_fixtures.py: sherpa-onnx is not in the venv: run tools/sensevoice/install_parity.sh")
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    out = Path(argv[0])
    repo, clips, goldens = out / "repo", out / "clips", out / "goldens"
    for folder in (repo, clips, goldens):
        folder.mkdir(parents=True, exist_ok=True)
    onnx.save(graphs.model(), str(repo / "model.onnx"))
    quantize_dynamic(str(repo / "model.onnx"), str(repo / "model.int8.onnx"), op_types_to_quantize=["MatMul"],
                     weight_type=QuantType.QUInt8)
    graphs.write_tokens(repo / "tokens.txt")
    (repo / "README.md").write_text("Synthetic SenseVoice graphs (tools/sensevoice/graphs.py) for Warble's tests.\n")

    clip_specs = {"short16k": (6.0, 16000, 1), "short44k": (5.0, 44100, 2), "long16k": (75.0, 16000, 3)}
    for name, (seconds, rate, seed) in clip_specs.items():
        write_wav(clips / f"{name}.wav", speechlike(seconds, rate, seed), rate)

    vocab = {token: i for i, token in enumerate(graphs.tokens())}
    cases = []
    for name in clip_specs:
        samples, rate = read_wav(clips / f"{name}.wav")
        for model_file in ("model.onnx", "model.int8.onnx"):
            for language in LANGUAGES:
                result = sherpa_decode(repo / model_file, repo / "tokens.txt", samples, rate, language)
                result["ids"] = [vocab[t.replace(" ", "▁", 1) if t.startswith(" ") else t] for t in result["tokens"]]
                cases.append({"clip": f"{name}.wav", "model": model_file, "language": language, **result})
    (goldens / "decode.json").write_text(json.dumps({"reference": "sherpa-onnx 2.0.1", "cases": cases},
                                                    ensure_ascii=False, indent=1) + "\n")

    # The front end, checked against sherpa-onnx: these features decode to its tokens through ONNX Runtime.
    samples, _ = read_wav(clips / "short16k.wav")
    features = front_end(samples)
    session = ort.InferenceSession(str(repo / "model.onnx"), providers=["CPUExecutionProvider"])
    logits = session.run(["logits"], {"x": features[None], "x_length": np.array([len(features)], np.int32),
                                      "language": np.array([0], np.int32),
                                      "text_norm": np.array([graphs.WITHOUT_ITN], np.int32)})[0][0]
    best = logits.argmax(-1)
    ids, previous = [], -1
    for y in best:
        if y != 0 and y != previous:
            ids.append(int(y))
        previous = y
    expected = next(c for c in cases if c["clip"] == "short16k.wav" and c["model"] == "model.onnx" and c["language"] == "auto")
    if ids[4:] != expected["ids"] or [graphs.tokens()[i] for i in ids[:3]] != [expected["lang"], expected["emotion"],
                                                                             expected["event"]]:
        sys.exit(f"sensevoice fixtures: the numpy front end does not decode to sherpa-onnx's tokens ({ids} vs {expected})")
    (goldens / "features.json").write_text(json.dumps({
        "clip": "short16k.wav", "rows": int(features.shape[0]), "columns": int(features.shape[1]),
        "fbank_frames": int(1 + (len(samples) - 400) // 160),
        "values": [round(float(v), 6) for v in features.reshape(-1)]}) + "\n")
    print(f"sensevoice: {len(cases)} sherpa-onnx decodes, features {features.shape}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
