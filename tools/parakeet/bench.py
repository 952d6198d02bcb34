#!/usr/bin/env python3
"""Warble against sherpa-onnx on Parakeet TDT graphs of the real widths (graphs.py with 8192 tokens + the blank, encoder
width 1024, prediction network 2 × 640 LSTM, joint 640, 5 durations; the encoder's depth --encoder-layers residual
1024 × 1024 layers a frame, 576 by default ≈ 0.6 B parameters, 2.4 GB as f32, about the real encoder's matrix work
a frame; random weights made now), on the same speech-like clips, threads and runs: seconds per second of audio for
each, their ratio, and Warble's time outside ONNX Runtime.

    bench.py WARBLE_BINARY --work DIR [--threads 2] [--runs 3] [--encoder-layers 576] [--int8]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import graphs  # noqa: E402
import make_fixtures  # noqa: E402

CLIPS = {"bench10s": 10.0, "bench60s": 60.0}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warble")
    parser.add_argument("--work", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--encoder-layers", type=int, default=576)
    parser.add_argument("--int8", action="store_true", help="the int8 files as the export quantises them")
    args = parser.parse_args(argv)
    import sherpa_onnx

    work = Path(args.work)
    home = work / "home"
    name = f"parakeet-bench-{args.encoder_layers}" + ("-int8" if args.int8 else "")
    model_dir = home / "models" / name
    suffix = ".int8" if args.int8 else ""
    if not (model_dir / f"joiner{suffix}.onnx").exists():
        print(f"bench: making the real-width graphs ({args.encoder_layers} encoder layers)", file=sys.stderr, flush=True)
        graphs.write_repo(model_dir, dim=1024, hidden=640, joint=640, layers=args.encoder_layers,
                          vocabulary=graphs.REAL["vocabulary"], int8=args.int8, fp32=not args.int8)
    files = {f"{part}{suffix}.onnx": f"{part}{suffix}.onnx" for part in ("encoder", "decoder", "joiner")}
    files["tokens.txt"] = "tokens.txt"
    (model_dir / "manifest.json").write_text(json.dumps({
        "id": name, "family": "parakeet", "displayName": "Parakeet TDT (benchmark graphs)",
        "licence": "synthetic", "source": "tools/parakeet/bench.py", "sampleRate": 16000,
        "languages": ["en"], "voices": [], "files": [], "config": {"files": files}}))
    real_home = Path(os.environ.get("WARBLE_HOME") or Path.home() / ".local/share/warble")
    if not (home / "lib").exists():
        (home / "lib").symlink_to(real_home / "lib")
    clips = []
    for clip, seconds in CLIPS.items():
        path = work / f"{clip}.wav"
        if not path.exists():
            make_fixtures.write_wav(path, make_fixtures.speechlike(seconds, 16000, 40 + len(clips)), 16000)
        clips.append(path)
    audio = sum(CLIPS.values())

    recognizer = sherpa_onnx.OfflineRecognizer.from_transducer(
        encoder=str(model_dir / f"encoder{suffix}.onnx"), decoder=str(model_dir / f"decoder{suffix}.onnx"),
        joiner=str(model_dir / f"joiner{suffix}.onnx"), tokens=str(model_dir / "tokens.txt"), num_threads=args.threads,
        model_type="nemo_transducer")
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
    out = subprocess.run([args.warble, "bench", "asr", "--model", name, "--threads", str(args.threads),
                          "--runs", str(args.runs)] + [str(c) for c in clips], env=env, check=True, capture_output=True, text=True)
    warble = json.loads(out.stdout)
    text = subprocess.run([args.warble, "transcribe", "--no-history", "--model", name, str(clips[-1])], env=env,
                          check=True, capture_output=True, text=True).stdout.strip()
    result = {
        "graphs": name, "threads": args.threads, "runs": args.runs, "audio_s": audio,
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
