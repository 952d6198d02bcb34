"""Parity of tools/neutts/convert.py against Hugging Face transformers (PyTorch, CPU), random weights.

    .venv/bin/python tools/neutts/test_convert.py            (needs tools/neutts/install_parity.sh)
    .venv/bin/python tools/neutts/test_convert.py --quick    (two cases only)

For each case: a small config of the architecture, a transformers model made from it with a fixed
seed (weights scaled up so that logits spread over several units), save_pretrained as safetensors
(f32, or bf16 for one case), convert(), then the same token stream through both:
  1. batch 1: prefill of 12 tokens, then 20 greedy decode steps, ONNX feeding present -> past and
     transformers its own cache; the last position's logits (all the graph gives) compared at every
     step, so the prompt's other rows are checked through the cache the decode steps read;
  2. batch 2 with left padding (3 pads in the second row, attention_mask 0 there, position_ids
     counting from the first real token), prefill then 5 decode steps; the last position's logits
     (real in every row) compared.
Tolerance: max |logit difference| <= 1e-4 for f32 checkpoints (bf16 checkpoints are widened exactly
to f32 on both sides, so the same bound applies). The ONNX graph must also fail the check when a
plausible mistake is made: --self-check ignores the RoPE scaling, reverses the RoPE frequencies,
swaps present key/value or two layers when feeding them back, feeds stale decode positions and
ignores the padding mask, and expects every one of them to fail the tolerance.

    .venv/bin/python tools/neutts/test_convert.py --self-check   (each mistake must be caught)
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time

import numpy as np


import onnxruntime as ort  # noqa: E402

from tools.neutts import convert  # noqa: E402

TOLERANCE = 1e-4
PREFILL, DECODE = 12, 20

BASE = dict(hidden_size=64, intermediate_size=160, num_hidden_layers=3, num_attention_heads=4,
            num_key_value_heads=2, vocab_size=300, max_position_embeddings=256, rms_norm_eps=1e-5)

CASES = {
    # name: (architecture, config overrides, save dtype)
    "llama_untied_f32": ("llama", dict(tie_word_embeddings=False, rope_theta=10000.0), "float32"),
    "llama_tied_llama3_f32": ("llama", dict(tie_word_embeddings=True, rope_theta=500000.0,
                                            rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                                          "high_freq_factor": 4.0,
                                                          "original_max_position_embeddings": 64}), "float32"),
    # NeuTTS Nano's own rope: linear, factor 32, theta 500000; head_dim given explicitly; 9 heads / 3 KV
    "llama_nano_like_bf16": ("llama", dict(tie_word_embeddings=True, hidden_size=72, num_attention_heads=9,
                                           num_key_value_heads=3, head_dim=8, rope_theta=500000.0,
                                           rope_scaling={"type": "linear", "rope_type": "linear", "factor": 32.0}),
                             "bfloat16"),
    "llama_attention_bias_f32": ("llama", dict(tie_word_embeddings=False, attention_bias=True, mlp_bias=True), "float32"),
    "qwen2_tied_f32": ("qwen2", dict(tie_word_embeddings=True, rope_theta=1000000.0), "float32"),
    "qwen2_untied_f32": ("qwen2", dict(tie_word_embeddings=False, num_key_value_heads=1), "float32"),
    # f16 tensors, written as shards + model.safetensors.index.json
    "qwen2_sharded_f16": ("qwen2", dict(tie_word_embeddings=True, _shard="40KB"), "float16"),
}


def make_checkpoint(arch: str, overrides: dict, dtype: str, out_dir: str, seed: int):
    import torch
    import transformers

    transformers.utils.logging.disable_progress_bar()

    torch.manual_seed(seed)
    values = dict(BASE, **overrides)
    shard = values.pop("_shard", None)
    if arch == "llama":
        config = transformers.LlamaConfig(**values)
        model = transformers.LlamaForCausalLM(config)
    else:
        config = transformers.Qwen2Config(**values)
        model = transformers.Qwen2ForCausalLM(config)
    with torch.no_grad():  # random, larger than the init's 0.02 so that every path matters
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1.0 + 0.2 * torch.randn_like(p))
            elif name.endswith("bias"):
                p.copy_(0.3 * torch.randn_like(p))
            else:
                p.copy_(torch.randn_like(p) / p.shape[-1] ** 0.5)
    model = model.to(getattr(torch, dtype))
    model.save_pretrained(out_dir, **({"max_shard_size": shard} if shard else {}))
    if shard and not os.path.exists(os.path.join(out_dir, "model.safetensors.index.json")):
        raise AssertionError("save_pretrained did not shard the checkpoint")
    # The reference: transformers loading the same files in f32 (a model cast to f16/bf16 and back
    # would also have rounded its RoPE inv_freq buffer).
    cls = transformers.LlamaForCausalLM if arch == "llama" else transformers.Qwen2ForCausalLM
    return cls.from_pretrained(out_dir, dtype=torch.float32).eval()


class OnnxRunner:
    def __init__(self, path: str, summary: dict):
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 2
        self.session = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
        self.layers, self.kv, self.d = summary["layers"], summary["kv_heads"], summary["head_dim"]
        self.out_names = [o.name for o in self.session.get_outputs()]

    def empty(self, batch):
        return [np.zeros((batch, self.kv, 0, self.d), np.float32) for _ in range(2 * self.layers)]

    def run(self, ids, mask, pos, past):
        feeds = {"input_ids": ids, "attention_mask": mask, "position_ids": pos}
        for i in range(self.layers):
            feeds[f"past_key_values.{i}.key"] = past[2 * i]
            feeds[f"past_key_values.{i}.value"] = past[2 * i + 1]
        out = self.session.run(self.out_names, feeds)
        return out[0], out[1:]


def torch_step(model, ids, mask, pos, cache):
    import torch
    with torch.no_grad():
        out = model(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask),
                    position_ids=torch.from_numpy(pos), cache=cache, use_cache=True)
    return out.logits.float().numpy(), out.cache


def check_layout(session: ort.InferenceSession, summary: dict) -> list[str]:
    """Names, order, element types and symbolic dims of the contract (README)."""
    problems = []
    L, kv, d, V = summary["layers"], summary["kv_heads"], summary["head_dim"], summary["vocab"]
    want_in = [("input_ids", "tensor(int64)", ["batch_size", "sequence_length"]),
               ("attention_mask", "tensor(int64)", ["batch_size", "total_sequence_length"]),
               ("position_ids", "tensor(int64)", ["batch_size", "sequence_length"])]
    want_out = [("logits", "tensor(float)", ["batch_size", 1, V])]
    for i in range(L):
        for kind in ("key", "value"):
            want_in.append((f"past_key_values.{i}.{kind}", "tensor(float)", ["batch_size", kv, "past_sequence_length", d]))
            want_out.append((f"present.{i}.{kind}", "tensor(float)", ["batch_size", kv, "total_sequence_length", d]))
    got_in = [(a.name, a.type, list(a.shape)) for a in session.get_inputs()]
    got_out = [(a.name, a.type, list(a.shape)) for a in session.get_outputs()]
    if got_in != want_in:
        problems.append(f"inputs {got_in[:4]}... differ from the contract")
    if got_out != want_out:
        problems.append(f"outputs {got_out[:3]}... differ from the contract")
    return problems


def last_position_diff(ours, ref) -> float:
    """The largest |difference| between the graph's logits (the last position's) and that row of the reference's."""
    assert ours.shape == ref[:, -1:].shape, f"logits {ours.shape}: the last position's, {ref[:, -1:].shape}"
    return float(np.abs(ours - ref[:, -1:]).max())


def greedy_parity(model, runner, vocab, rng) -> float:
    """Batch 1: prefill then DECODE greedy steps; the largest |logit difference| seen (the last position's)."""
    from transformers import DynamicCache

    ids = rng.integers(0, vocab, size=(1, PREFILL)).astype(np.int64)
    past, cache, worst, total = runner.empty(1), DynamicCache(), 0.0, 0
    for step in range(DECODE + 1):
        n = ids.shape[1]
        pos = np.arange(total, total + n, dtype=np.int64)[None]
        mask = np.ones((1, total + n), np.int64)
        ours, past = runner.run(ids, mask, pos, past)
        ref, cache = torch_step(model, ids, mask, pos, cache)
        worst = max(worst, last_position_diff(ours, ref))
        if step == 0 and float(np.abs(ref).max()) < 1.0:
            raise AssertionError("reference logits are all small: the test would not see errors")
        total += n
        ids = ref[:, -1:].argmax(-1).astype(np.int64)   # both continue with the reference's token
    return worst


def padded_parity(model, runner, vocab, rng, pads=3, steps=5) -> float:
    """Batch 2, the second row left-padded: compare the last position's logits, prefill and each step."""
    from transformers import DynamicCache

    ids = rng.integers(0, vocab, size=(2, PREFILL)).astype(np.int64)
    mask = np.ones((2, PREFILL), np.int64)
    mask[1, :pads] = 0
    ids[1, :pads] = 0
    pos = np.clip(np.cumsum(mask, axis=1) - 1, 0, None).astype(np.int64)
    past, cache, worst = runner.empty(2), DynamicCache(), 0.0
    for step in range(steps + 1):
        ours, past = runner.run(ids, mask, pos, past)
        ref, cache = torch_step(model, ids, mask, pos, cache)
        # Left padding: every row's last position is real, and it is the one the graph gives.
        worst = max(worst, last_position_diff(ours, ref))
        ids = ref[:, -1:].argmax(-1).astype(np.int64)
        pos = pos[:, -1:] + 1
        mask = np.concatenate([mask, np.ones((2, 1), np.int64)], axis=1)
    return worst


def run_case(name: str, arch: str, overrides: dict, dtype: str, tmp: str, seed: int) -> dict:
    src = os.path.join(tmp, name)
    model = make_checkpoint(arch, overrides, dtype, src, seed)
    onnx_path = os.path.join(tmp, name + ".onnx")
    summary = convert.convert(src, onnx_path)
    runner = OnnxRunner(onnx_path, summary)
    problems = check_layout(runner.session, summary)
    rng = np.random.default_rng(seed)
    greedy = greedy_parity(model, runner, summary["vocab"], rng)
    padded = padded_parity(model, runner, summary["vocab"], rng)
    ok = not problems and greedy <= TOLERANCE and padded <= TOLERANCE
    return {"case": name, "ok": ok, "dtype_read": summary["dtype"], "greedy_max_diff": greedy,
            "padded_max_diff": padded, "problems": problems}


def self_check(tmp: str) -> int:
    """Plausible converter/runner mistakes must fail the comparison (run once after a change here)."""
    orig_inv, orig_run = convert.Spec._inv_freq, OnnxRunner.run

    def unscaled(self):  # RoPE scaling ignored
        kind = self.rope["rope_type"]
        self.rope["rope_type"] = "default"
        try:
            return orig_inv(self)
        finally:
            self.rope["rope_type"] = kind

    def kv_swapped(self, ids, mask, pos, past):
        logits, present = orig_run(self, ids, mask, pos, past)
        return logits, [present[i ^ 1] for i in range(len(present))]

    def layers_swapped(self, ids, mask, pos, past):
        logits, present = orig_run(self, ids, mask, pos, past)
        return logits, present[2:4] + present[:2] + present[4:]

    def stale_positions(self, ids, mask, pos, past):
        return orig_run(self, ids, mask, np.where(pos > PREFILL, pos - 1, pos), past)

    def padding_ignored(self, ids, mask, pos, past):
        return orig_run(self, ids, np.ones_like(mask), pos, past)

    breaks = [("rope scaling ignored", "llama_tied_llama3_f32", "inv", unscaled),
              ("rope scaling ignored", "llama_nano_like_bf16", "inv", unscaled),
              ("rope frequencies reversed", "qwen2_tied_f32", "inv", lambda self: orig_inv(self)[::-1].copy()),
              ("present key/value swapped", "qwen2_tied_f32", "run", kv_swapped),
              ("present layers 0/1 swapped", "llama_untied_f32", "run", layers_swapped),
              ("decode positions stale", "llama_untied_f32", "run", stale_positions),
              ("padding mask ignored", "llama_untied_f32", "run", padding_ignored)]
    missed = 0
    for label, name, where, fn in breaks:
        if where == "inv":
            convert.Spec._inv_freq = fn
        else:
            OnnxRunner.run = fn
        try:
            arch, overrides, dtype = CASES[name]
            r = run_case(name, arch, overrides, dtype, tmp, 1)
        finally:
            convert.Spec._inv_freq, OnnxRunner.run = orig_inv, orig_run
        caught = not r["ok"]
        missed += not caught
        print(f"{'caught' if caught else 'MISSED'} {label:28s} ({name}): greedy {r['greedy_max_diff']:.2e}, "
              f"left-padded {r['padded_max_diff']:.2e}", flush=True)
    return 1 if missed else 0


def refusals(tmp: str) -> list[str]:
    """Configurations the converter must refuse by name (UnsupportedModel, exit code 2)."""
    base = {"architectures": ["LlamaForCausalLM"], "hidden_size": 8, "num_hidden_layers": 1,
            "num_attention_heads": 2, "vocab_size": 4, "intermediate_size": 4}
    bad = {"GPT2LMHeadModel": {"architectures": ["GPT2LMHeadModel"]},
           "yarn": {"rope_scaling": {"rope_type": "yarn", "factor": 2.0}},
           "dynamic": {"rope_scaling": {"type": "dynamic", "factor": 2.0}},
           "gelu": {"hidden_act": "gelu"},
           "sliding": {"architectures": ["Qwen2ForCausalLM"], "use_sliding_window": True}}
    problems = []
    for word, change in bad.items():
        src = os.path.join(tmp, "refuse-" + word)
        os.makedirs(src, exist_ok=True)
        with open(os.path.join(src, "config.json"), "w") as f:
            json.dump(dict(base, **change), f)
        try:
            convert.convert(src, os.path.join(src, "model.onnx"))
            problems.append(f"{word}: converted")
        except convert.UnsupportedModel as e:
            if word not in str(e):
                problems.append(f"{word}: refused without naming it ({e})")
    return problems


def main(argv: list[str]) -> int:
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as e:
        print(f"test_convert.py: {e}: run tools/neutts/install_parity.sh first", file=sys.stderr)
        return 2
    if "--self-check" in argv:
        with tempfile.TemporaryDirectory(prefix="neutts-parity-") as tmp:
            return self_check(tmp)
    names = list(CASES)
    if "--quick" in argv:
        names = ["llama_nano_like_bf16", "qwen2_tied_f32"]
    picked = [a for a in argv[1:] if a in CASES]
    if picked:
        names = picked
    started = time.time()
    results = []
    with tempfile.TemporaryDirectory(prefix="neutts-parity-") as tmp:
        refused = refusals(tmp)
        print(f"{'ok  ' if not refused else 'FAIL'} refusals (architecture, rope yarn/dynamic, gelu, sliding window)"
              + (f": {refused}" if refused else ""))
        for seed, name in enumerate(names):
            arch, overrides, dtype = CASES[name]
            r = run_case(name, arch, overrides, dtype, tmp, seed + 1)
            results.append(r)
            print(f"{'ok  ' if r['ok'] else 'FAIL'} {name:28s} read {r['dtype_read']:5s} "
                  f"greedy {r['greedy_max_diff']:.2e}  left-padded {r['padded_max_diff']:.2e}"
                  + (f"  {r['problems']}" if r["problems"] else ""), flush=True)
    failed = [r["case"] for r in results if not r["ok"]] + (["refusals"] if refused else [])
    print(f"{sum(r['ok'] for r in results)}/{len(results)} cases within {TOLERANCE:g} "
          f"({time.time() - started:.1f} s)")
    if "--json" in argv:
        print(json.dumps(results, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
