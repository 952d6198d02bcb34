#!/usr/bin/env python3
"""Warble against sherpa-onnx on a SenseVoice graph of the real size (graphs.py with 25055 tokens, hidden 2048,
43 residual layers by default (--layers): ≈ 233 M parameters, 933 MB as f32; random weights made now), on the same speech-like clips,
threads and runs: seconds per second of audio for each, their ratio, and Warble's time outside ONNX Runtime
(tools/sherpa/bench.py).

    bench.py WARBLE_BINARY --work DIR [--threads 2] [--runs 3] [--layers 43] [--int8]
"""
import json
import sys
from pathlib import Path

from tools.sensevoice import graphs
from tools.sherpa import bench


def main(argv):
    parser = bench.arguments(__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=43, help="residual layers (43: the real size; fewer for a quick run)")
    parser.add_argument("--int8", action="store_true", help="also quantise the graph (MatMul, QUInt8) and time that")
    args = parser.parse_args(argv)
    import onnx
    import sherpa_onnx

    home = bench.model_home(Path(args.work))
    name = f"sensevoice-bench-{args.layers}"
    model_dir = home / "models" / name
    model_dir.mkdir(parents=True, exist_ok=True)
    graph = model_dir / "model.onnx"
    if not graph.exists():
        print(f"bench: making the graph ({args.layers} layers; 43: the real size, 933 MB)", file=sys.stderr, flush=True)
        onnx.save(graphs.model(hidden=2048, layers=args.layers, vocabulary=graphs.REAL_VOCABULARY, seed=5), str(graph))
        graphs.write_tokens(model_dir / "tokens.txt", graphs.REAL_VOCABULARY)
    files = {"model.onnx": "model.onnx", "tokens.txt": "tokens.txt"}
    if args.int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic
        quantized = model_dir / "model.int8.onnx"
        if not quantized.exists():
            quantize_dynamic(str(graph), str(quantized), op_types_to_quantize=["MatMul"], weight_type=QuantType.QUInt8)
        graph, files = quantized, {"model.int8.onnx": "model.int8.onnx", "tokens.txt": "tokens.txt"}
    (model_dir / "manifest.json").write_text(json.dumps({
        "id": name, "family": "sensevoice", "displayName": "SenseVoice (benchmark graph)",
        "licence": "synthetic", "source": "tools/sensevoice/bench.py", "sampleRate": 16000,
        "languages": ["zh", "en", "yue", "ja", "ko"], "voices": [], "files": [], "config": {"files": files}}))
    recognizer = sherpa_onnx.OfflineRecognizer.from_sense_voice(model=str(graph), tokens=str(model_dir / "tokens.txt"),
                                                               num_threads=args.threads, use_itn=False)
    return bench.compare(args, home, name, recognizer, {"graph": f"{name}/{graph.name}"})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
