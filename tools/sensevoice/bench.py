#!/usr/bin/env python3
"""Warble against sherpa-onnx on a SenseVoice graph of the real size (graphs.py with 25055 tokens, hidden 2048,
43 residual layers: ≈ 233 M parameters, 933 MB as f32; random weights made now), on the same speech-like clips,
threads and runs: seconds per second of audio for each, their ratio, and Warble's time outside ONNX Runtime.

    bench.py WARBLE_BINARY --work DIR [--threads 2] [--runs 3] [--int8]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from tools.sensevoice import graphs  # noqa: E402
from tools.sensevoice import make_fixtures  # noqa: E402

CLIPS = {"bench10s": 10.0, "bench60s": 60.0}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warble")
    parser.add_argument("--work", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--int8", action="store_true", help="also quantise the graph (MatMul, QUInt8) and time that")
    args = parser.parse_args(argv)
    import onnx
    import sherpa_onnx

    work = Path(args.work)
    home = work / "home"
    model_dir = home / "models" / "sensevoice-bench"
    model_dir.mkdir(parents=True, exist_ok=True)
    graph = model_dir / "model.onnx"
    if not graph.exists():
        print("bench: making the real-size graph (933 MB)", file=sys.stderr, flush=True)
        onnx.save(graphs.model(hidden=2048, layers=43, vocabulary=graphs.REAL_VOCABULARY, seed=5), str(graph))
        graphs.write_tokens(model_dir / "tokens.txt", graphs.REAL_VOCABULARY)
    files = {"model.onnx": "model.onnx", "tokens.txt": "tokens.txt"}
    if args.int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic
        quantized = model_dir / "model.int8.onnx"
        if not quantized.exists():
            quantize_dynamic(str(graph), str(quantized), op_types_to_quantize=["MatMul"], weight_type=QuantType.QUInt8)
        graph, files = quantized, {"model.int8.onnx": "model.int8.onnx", "tokens.txt": "tokens.txt"}
    (model_dir / "manifest.json").write_text(json.dumps({
        "id": "sensevoice-bench", "family": "sensevoice", "displayName": "SenseVoice (benchmark graph)",
        "licence": "synthetic", "source": "tools/sensevoice/bench.py", "sampleRate": 16000,
        "languages": ["zh", "en", "yue", "ja", "ko"], "voices": [], "files": [], "config": {"files": files}}))
    real_home = Path(os.environ.get("WARBLE_HOME") or Path.home() / ".local/share/warble")
    if not (home / "lib").exists():
        (home / "lib").symlink_to(real_home / "lib")
    clips = []
    for name, seconds in CLIPS.items():
        path = work / f"{name}.wav"
        if not path.exists():
            make_fixtures.write_wav(path, make_fixtures.speechlike(seconds, 16000, 40 + len(clips)), 16000)
        clips.append(path)
    audio = sum(CLIPS.values())

    # sherpa-onnx: the same graph, threads, clips and runs (median run of each clip).
    recognizer = sherpa_onnx.OfflineRecognizer.from_sense_voice(model=str(graph), tokens=str(model_dir / "tokens.txt"),
                                                               num_threads=args.threads, use_itn=False)
    sherpa = 0.0
    for path in clips:
        samples, rate = make_fixtures.read_wav(path)

        def once():
            start = time.perf_counter()
            stream = recognizer.create_stream()
            stream.accept_waveform(rate, samples)
            recognizer.decode_stream(stream)
            return time.perf_counter() - start, stream.result.text
        _, reference_text = once()
        sherpa += statistics.median(once()[0] for _ in range(args.runs))

    env = dict(os.environ, WARBLE_HOME=str(home))
    out = subprocess.run([args.warble, "bench", "asr", "--model", "sensevoice-bench", "--threads", str(args.threads),
                          "--runs", str(args.runs)] + [str(c) for c in clips], env=env, check=True, capture_output=True, text=True)
    warble = json.loads(out.stdout)
    text = subprocess.run([args.warble, "transcribe", "--no-history", "--model", "sensevoice-bench", str(clips[-1])], env=env,
                          check=True, capture_output=True, text=True).stdout.strip()
    result = {
        "graph": graph.name, "threads": args.threads, "runs": args.runs, "audio_s": audio,
        "sherpa_onnx_s_per_audio_s": sherpa / audio, "warble_s_per_audio_s": warble["seconds_per_audio_second"],
        "warble_over_sherpa": warble["transcribe_s"] / sherpa,
        "warble_outside_ort_s": warble["outside_run_s"], "warble_outside_ort_share": warble["outside_run_s"] / warble["transcribe_s"],
        "warble_load_s": warble["load_s"], "warble_peak_rss_mib": warble["peak_rss_kib"] / 1024,
        "same_text_as_sherpa_onnx": text == reference_text,
    }
    print(json.dumps(result, indent=1))
    return 0 if result["same_text_as_sherpa_onnx"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
