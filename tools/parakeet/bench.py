#!/usr/bin/env python3
"""Warble against sherpa-onnx on Parakeet TDT graphs of the real widths (graphs.py with 8192 tokens + the blank, encoder
width 1024, prediction network 2 × 640 LSTM, joint 640, 5 durations; the encoder's depth --encoder-layers residual
1024 × 1024 layers a frame, 576 by default ≈ 0.6 B parameters, 2.4 GB as f32, about the real encoder's matrix work
a frame; random weights made now), on the same speech-like clips, threads and runs: seconds per second of audio for
each, their ratio, and Warble's time outside ONNX Runtime (tools/sherpa/bench.py).

    bench.py WARBLE_BINARY --work DIR [--threads 2] [--runs 3] [--encoder-layers 576] [--int8]
"""
import json
import sys
from pathlib import Path

from tools.parakeet import graphs
from tools.sherpa import bench


def main(argv):
    parser = bench.arguments(__doc__.splitlines()[0])
    parser.add_argument("--encoder-layers", type=int, default=576)
    parser.add_argument("--int8", action="store_true", help="the int8 files as the export quantises them")
    args = parser.parse_args(argv)
    import sherpa_onnx

    home = bench.model_home(Path(args.work))
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
    recognizer = sherpa_onnx.OfflineRecognizer.from_transducer(
        encoder=str(model_dir / f"encoder{suffix}.onnx"), decoder=str(model_dir / f"decoder{suffix}.onnx"),
        joiner=str(model_dir / f"joiner{suffix}.onnx"), tokens=str(model_dir / "tokens.txt"), num_threads=args.threads,
        model_type="nemo_transducer")
    return bench.compare(args, home, name, recognizer, {"graphs": name})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
