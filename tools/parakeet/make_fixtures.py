#!/usr/bin/env python3
"""Writes the Parakeet TDT fixtures and goldens (Tests/WarbleModelsTests/ParakeetTests.swift, the pull tests,
scripts/test-cli.sh) into OUTDIR.

    tools/parakeet/make_fixtures.py Tests/Fixtures/generated/parakeet

Outputs:
  repo/                 laid out as csukuangfj/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3: encoder.onnx + encoder.weights,
                        decoder.onnx, joiner.onnx, tokens.txt (graphs.py: the export's names, dtypes, dynamic axes,
                        metadata; toy weights)
  repo-int8/            laid out as …-v3-int8: encoder.int8.onnx, decoder.int8.onnx, joiner.int8.onnx, tokens.txt
                        (quantize_dynamic as the export makes them: encoder QUInt8, decoder and joiner QInt8)
  clips/                the speech-like seeded signals of tools/sensevoice: short16k.wav (6 s, 16 kHz), short44k.wav
                        (5 s, 44.1 kHz), long16k.wav (75 s, 16 kHz)
  goldens/decode.json   for every clip × {f32, int8}: what sherpa-onnx 2.0.1's OfflineRecognizer.from_transducer
                        (model_type nemo_transducer, greedy search) gives on the same files: token ids, text, token
                        timestamps and durations (seconds)
  goldens/features.json the front end of short16k.wav as sherpa-onnx computes it (kaldi-native-fbank with sherpa-onnx's
                        NeMo options, then per-feature normalisation in float32 as sherpa-onnx's Eigen code), checked here
                        to decode to sherpa-onnx's tokens through ONNX Runtime with a TDT greedy search written from
                        sherpa-onnx's
sherpa-onnx comes from tools/sensevoice/install_parity.sh (scripts/test.sh runs it first).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from tools.parakeet import graphs
from tools.sherpa.speechlike import read_wav, speechlike, write_wav

CLIPS = {"short16k": (6.0, 16000, 1), "short44k": (5.0, 44100, 2), "long16k": (75.0, 16000, 3)}
MODELS = {"f32": ("repo", ""), "int8": ("repo-int8", ".int8")}


def front_end(samples: np.ndarray) -> np.ndarray:
    """sherpa-onnx's NeMo features of 16 kHz samples in [-1, 1]: [frames, 128]."""
    import kaldi_native_fbank as knf
    opts = knf.FbankOptions()
    opts.frame_opts.dither = 0
    opts.frame_opts.snip_edges = False
    opts.frame_opts.samp_freq = 16000
    opts.frame_opts.remove_dc_offset = False
    opts.frame_opts.window_type = "povey"
    opts.mel_opts.num_bins = graphs.FEATURES
    opts.mel_opts.low_freq = 0
    opts.mel_opts.high_freq = -400
    opts.mel_opts.is_librosa = True
    opts.use_log_floor = False        # log(energy + 2^-24), NeMo's log_zero_guard_value, as sherpa-onnx 2.0.1 sets it
    opts.eps = 2.0 ** -24
    fbank = knf.OnlineFbank(opts)
    fbank.accept_waveform(16000, samples.tolist())
    fbank.input_finished()
    x = np.stack([fbank.get_frame(i) for i in range(fbank.num_frames_ready)]).astype(np.float32)
    mean = x.mean(axis=0, dtype=np.float32)
    var = np.maximum((x * x).mean(axis=0, dtype=np.float32) - mean * mean, np.float32(0))
    inv = (np.float32(1) / (np.sqrt(var) + np.float32(1e-5))).astype(np.float32)
    return ((x - mean) * inv).astype(np.float32)


def greedy_tdt(folder: Path, suffix: str, features: np.ndarray, exact_int8: bool = False) -> list[int]:
    """TDT greedy search over ONNX Runtime as sherpa-onnx's DecodeOneTDT does it; `exact_int8`: with the exact int8
    kernels Warble asks for (session.x64quantprecision)."""
    import onnxruntime as ort
    def session(name):
        options = ort.SessionOptions()
        if exact_int8:
            options.add_session_config_entry("session.x64quantprecision", "1")
        return ort.InferenceSession(str(folder / f"{name}{suffix}.onnx"), options, providers=["CPUExecutionProvider"])
    enc, dec, joi = session("encoder"), session("decoder"), session("joiner")
    meta = enc.get_modelmeta().custom_metadata_map
    vocab = int(meta["vocab_size"]) + 1
    layers, hidden = int(meta["pred_rnn_layers"]), int(meta["pred_hidden"])
    out, length = enc.run(None, {"audio_signal": features.T[None], "length": np.array([len(features)], np.int64)})
    frames = out[0].T  # [T', D]

    def run_decoder(token, s0, s1):
        o = dec.run(None, {"targets": np.array([[token]], np.int32), "target_length": np.array([1], np.int32),
                           "states.1": s0, "onnx::Slice_3": s1})
        return o[0], o[2], o[3]
    blank = vocab - 1
    d, s0, s1 = run_decoder(blank, np.zeros((layers, 1, hidden), np.float32), np.zeros((layers, 1, hidden), np.float32))
    ids, t, on_frame = [], 0, 0
    while t < int(length[0]):
        logits = joi.run(None, {"encoder_outputs": frames[t][None, :, None], "decoder_outputs": d})[0].reshape(-1)
        y, skip = int(np.argmax(logits[:vocab])), int(np.argmax(logits[vocab:]))
        if y != blank:
            ids.append(y)
            d, s0, s1 = run_decoder(y, s0, s1)
            on_frame += 1
        if skip > 0:
            on_frame = 0
        if on_frame >= 5:
            on_frame, skip = 0, 1
        if y == blank and skip == 0:
            on_frame, skip = 0, 1
        t += skip
    return ids


def sherpa_decode(folder: Path, suffix: str, samples: np.ndarray, rate: int) -> dict:
    import sherpa_onnx
    recognizer = sherpa_onnx.OfflineRecognizer.from_transducer(
        encoder=str(folder / f"encoder{suffix}.onnx"), decoder=str(folder / f"decoder{suffix}.onnx"),
        joiner=str(folder / f"joiner{suffix}.onnx"), tokens=str(folder / "tokens.txt"), num_threads=1,
        model_type="nemo_transducer", decoding_method="greedy_search", debug=False)
    stream = recognizer.create_stream()
    stream.accept_waveform(rate, samples)
    recognizer.decode_stream(stream)
    r = stream.result
    return {"text": r.text, "tokens": list(r.tokens), "timestamps": [float(t) for t in r.timestamps],
            "durations": [float(d) for d in r.durations]}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.exit("usage: make_fixtures.py OUTDIR")
    try:
        import sherpa_onnx  # noqa: F401
    except ImportError:
        sys.exit("tools/parakeet/make_fixtures.py: sherpa-onnx is not in the venv: run tools/sensevoice/install_parity.sh")
    out = Path(argv[0])
    clips, goldens = out / "clips", out / "goldens"
    for folder in (clips, goldens):
        folder.mkdir(parents=True, exist_ok=True)
    graphs.write_repo(out / "repo", int8=False)
    graphs.write_repo(out / "repo-int8", fp32=False)
    for name, (seconds, rate, seed) in CLIPS.items():
        write_wav(clips / f"{name}.wav", speechlike(seconds, rate, seed), rate)

    vocab = {token: i for i, token in enumerate(graphs.tokens())}
    cases = []
    for name in CLIPS:
        samples, rate = read_wav(clips / f"{name}.wav")
        for model, (folder, suffix) in MODELS.items():
            result = sherpa_decode(out / folder, suffix, samples, rate)
            result["ids"] = [vocab["▁" + t[1:] if t.startswith(" ") else t] for t in result["tokens"]]
            if model == "int8" and rate == 16000:
                # sherpa-onnx's own ONNX Runtime multiplies int8 with kernels that saturate on an x86-64 CPU without
                # VNNI (Warble asks for exact ones): the same search over this ONNX Runtime with exact kernels, which
                # the checks hold Warble to within 1 % where sherpa-onnx's tokens differ.
                result["exact_ids"] = greedy_tdt(out / folder, suffix, front_end(samples), exact_int8=True)
            cases.append({"clip": f"{name}.wav", "model": model, **result})
    (goldens / "decode.json").write_text(json.dumps({"reference": "sherpa-onnx 2.0.1", "cases": cases},
                                                    ensure_ascii=False, indent=1) + "\n")

    # The front end, checked against sherpa-onnx: these features decode to its tokens through ONNX Runtime.
    samples, _ = read_wav(clips / "short16k.wav")
    features = front_end(samples)
    for model, (folder, suffix) in MODELS.items():
        expected = next(c for c in cases if c["clip"] == "short16k.wav" and c["model"] == model)
        ids = greedy_tdt(out / folder, suffix, features)
        if ids != expected["ids"]:
            sys.exit(f"parakeet fixtures: the numpy front end and TDT search do not give sherpa-onnx's tokens ({model}):\n"
                     f"{ids}\n{expected['ids']}")
    (goldens / "features.json").write_text(json.dumps({
        "clip": "short16k.wav", "rows": int(features.shape[0]), "columns": int(features.shape[1]),
        "values": [round(float(v), 6) for v in features.reshape(-1)]}) + "\n")
    stay = sum(d == 0 for c in cases for d in c["durations"])
    print(f"parakeet: {len(cases)} sherpa-onnx decodes ({sum(len(c['ids']) for c in cases)} tokens, {stay} on the frame "
          f"of the next), features {features.shape}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
