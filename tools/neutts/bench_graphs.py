"""A NeuTTS Nano backbone of the real size with random weights, for the benchmark (never committed).

    .venv/bin/python tools/neutts/bench_graphs.py OUTDIR

Writes OUTDIR/source/{config.json, model.safetensors} (bf16, as the published checkpoint stores
its weights) and converts it with convert.py to OUTDIR/backbone.onnx (+ backbone.onnx_data, f32,
about 0.9 GB). The configuration is Nano's as far as public metadata shows it (Llama, hidden 576,
24 layers, 9 heads of 64, 3 KV heads, MLP 2304, vocab 194256, tied embeddings, RoPE theta 500000
with linear scaling 32, RMSNorm eps 1e-5; 228,704,832 values): the published config.json could
not be read from here, so check it against the real file when it can be had. Weights are normal
with std 1/sqrt(fan-in) (norms 1), so that activations keep a sane range; their values mean nothing.
"""
from __future__ import annotations

import json
import os
import struct
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import convert  # noqa: E402

NANO_CONFIG = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama",
    "vocab_size": 194256, "hidden_size": 576, "intermediate_size": 2304, "num_hidden_layers": 24,
    "num_attention_heads": 9, "num_key_value_heads": 3, "head_dim": 64, "hidden_act": "silu",
    "max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "rope_theta": 500000.0,
    "rope_scaling": {"factor": 32.0, "rope_type": "linear", "type": "linear"},
    "attention_bias": False, "mlp_bias": False, "tie_word_embeddings": True,
    "bos_token_id": 128000, "eos_token_id": 128261, "pad_token_id": 128001, "torch_dtype": "bfloat16",
}


def tensors(config: dict):
    W, I, L = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
    D, H, KV = config["head_dim"], config["num_attention_heads"], config["num_key_value_heads"]
    yield "model.embed_tokens.weight", (config["vocab_size"], W)
    for i in range(L):
        p = f"model.layers.{i}"
        yield f"{p}.input_layernorm.weight", (W,)
        yield f"{p}.self_attn.q_proj.weight", (H * D, W)
        yield f"{p}.self_attn.k_proj.weight", (KV * D, W)
        yield f"{p}.self_attn.v_proj.weight", (KV * D, W)
        yield f"{p}.self_attn.o_proj.weight", (W, H * D)
        yield f"{p}.post_attention_layernorm.weight", (W,)
        yield f"{p}.mlp.gate_proj.weight", (I, W)
        yield f"{p}.mlp.up_proj.weight", (I, W)
        yield f"{p}.mlp.down_proj.weight", (W, I)
    yield "model.norm.weight", (W,)


def write_random_safetensors(path: str, config: dict, seed: int = 0) -> int:
    """bf16 safetensors (the upper 16 bits of f32 normals); returns the number of values."""
    rng = np.random.default_rng(seed)
    layout = list(tensors(config))
    header, offset = {}, 0
    for name, shape in layout:
        n = int(np.prod(shape)) * 2
        header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [offset, offset + n]}
        offset += n
    header["__metadata__"] = {"format": "pt"}
    blob = json.dumps(header, separators=(",", ":")).encode()
    blob += b" " * ((-len(blob)) % 8)
    values = 0
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        for name, shape in layout:
            if name.endswith("norm.weight"):
                x = np.ones(shape, np.float32)
            else:
                x = rng.standard_normal(shape, dtype=np.float32) * np.float32(shape[-1] ** -0.5)
            f.write((x.view(np.uint32) >> 16).astype(np.uint16).tobytes())
            values += x.size
    return values


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: bench_graphs.py OUTDIR", file=sys.stderr)
        return 2
    out = argv[1]
    src = os.path.join(out, "source")
    os.makedirs(src, exist_ok=True)
    with open(os.path.join(src, "config.json"), "w") as f:
        json.dump(NANO_CONFIG, f, indent=1)
    t0 = time.time()
    values = write_random_safetensors(os.path.join(src, "model.safetensors"), NANO_CONFIG)
    t1 = time.time()
    summary = convert.convert(src, os.path.join(out, "backbone.onnx"))
    t2 = time.time()
    summary.update(values=values, random_weights_seconds=round(t1 - t0, 1), convert_seconds=round(t2 - t1, 1))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
