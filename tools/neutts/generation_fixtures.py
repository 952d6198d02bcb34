#!/usr/bin/env python3
"""Goldens for NeuTTS's generation_config.json settings (issue #39 item 6), with transformers' own
logits processors: _infer_torch passes temperature 1, top_k 50, min_new_tokens 50, max_length 2048 and
the end id, and transformers takes everything else (top_p, repetition_penalty, min_p, ...) from the
repository's generation_config.json, applying RepetitionPenaltyLogitsProcessor (over every input id)
before TopKLogitsWarper, TopPLogitsWarper and MinPLogitsWarper. The draw is reference.py's: SplitMix64
uniforms, inverse CDF over the surviving tokens by probability (ties: the lower id).

Writes OUTDIR/generation/<name>/generation_config.json (one per case, and `refused`, which asks for
no_repeat_ngram_size 3) and OUTDIR/golden/generation.json. Needs torch and transformers
(tools/neutts/install_parity.sh), as make_fixtures.py's encoder fixtures do; make_fixtures.py calls
write(); run alone on an existing fixture directory:

    .venv/bin/python tools/neutts/generation_fixtures.py Tests/Fixtures/generated/neutts
"""
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import torch
from transformers.generation.logits_process import (LogitsProcessorList, MinPLogitsWarper,
                                                    RepetitionPenaltyLogitsProcessor, TopKLogitsWarper,
                                                    TopPLogitsWarper)

from tools.neutts import reference

# (name, generation_config.json sampling keys, text, seed)
CASES = [
    ("top_p_penalty", {"top_p": 0.9, "repetition_penalty": 1.3},
     "The quick brown fox jumps over the lazy dog, then it runs into the woods.", 2025),
    ("min_p", {"min_p": 0.2, "repetition_penalty": 0.9}, "Hello there, this is Warble speaking.", 7),
]
REFUSED = {"no_repeat_ngram_size": 3}


def processors(settings):
    """transformers' order for do_sample=True at temperature 1 (TemperatureLogitsWarper(1.0) is skipped)."""
    chain = LogitsProcessorList()
    if settings.get("repetition_penalty", 1.0) != 1.0:
        chain.append(RepetitionPenaltyLogitsProcessor(settings["repetition_penalty"]))
    chain.append(TopKLogitsWarper(reference.TOP_K))
    if settings.get("top_p", 1.0) < 1.0:
        chain.append(TopPLogitsWarper(settings["top_p"]))
    if settings.get("min_p") is not None:
        chain.append(MinPLogitsWarper(settings["min_p"]))
    return chain


def chooser(settings, draws):
    chain = processors(settings)

    def choose(input_ids, scores):
        warped = chain(torch.tensor([input_ids], dtype=torch.long), torch.from_numpy(np.array(scores, np.float32)[None]))
        s = warped[0].numpy()
        top_p_margin = 1.0
        if settings.get("top_p", 1.0) < 1.0:   # how far TopPLogitsWarper's cut is from flipping a token
            after_k = LogitsProcessorList(chain[:-1 if settings.get("min_p") is None else -2])(
                torch.tensor([input_ids], dtype=torch.long), torch.from_numpy(np.array(scores, np.float32)[None]))[0].numpy()
            q = np.sort(reference.softmax64(after_k[np.isfinite(after_k)]))
            top_p_margin = float(np.min(np.abs(np.cumsum(q) - (1 - settings["top_p"]))))
        kept = np.nonzero(np.isfinite(s))[0]
        p = reference.softmax64(s[kept])
        idx = np.lexsort((kept, -p))
        token, distance = reference.inverse_cdf(kept[idx], p[idx], draws())
        return token, dict(kept=int(kept.size), boundary_distance=distance, top_p_margin=top_p_margin)
    return choose


def write(out):
    out = Path(out)
    shutil.rmtree(out / "generation", ignore_errors=True)
    repo = out / "repo"
    tok = reference.load_tokenizer(repo / "tokenizer.json")
    base = json.loads((repo / "generation_config.json").read_text())
    end = tok.token_to_id(reference.SPEECH_GENERATION_END)
    backbone = reference.Backbone(repo / "onnx" / "model.onnx")
    ref_codes = [int(c) for c in np.load(out / "voice" / "ref_codes.npy")]
    ref_phones = reference.phonemize((out / "voice" / "ref.txt").read_text(encoding="utf-8"))
    cases = []
    for name, settings, text, seed in CASES + [("refused", REFUSED, None, None)]:
        d = out / "generation" / name
        d.mkdir(parents=True)
        (d / "generation_config.json").write_text(json.dumps({**base, **settings}, indent=2) + "\n")
        if text is None:
            continue
        phones = reference.phonemize(text)
        prompt = reference.prompt_ids(tok, ref_phones, phones, ref_codes)
        rng = reference.SplitMix64(seed)
        run = backbone.generate(prompt, end, choose=chooser(settings, rng.uniform))
        plain_rng = reference.SplitMix64(seed)
        plain = backbone.generate(prompt, end, draws=plain_rng.uniform)
        steps = run["steps"]
        cases.append(dict(name=name, settings=settings, text=text, phonemes=phones, prompt_ids=prompt, seed=seed,
                          generated=run["generated"], stopped=run["stopped"],
                          codes=reference.extract_codes(reference.generated_text(tok, run["generated"])),
                          differs_from_defaults=run["generated"] != plain["generated"],
                          kept=sorted(set(s["kept"] for s in steps)),
                          min_boundary_distance=min(s["boundary_distance"] for s in steps),
                          min_top_p_margin=min(s["top_p_margin"] for s in steps)))
    (out / "golden" / "generation.json").write_text(json.dumps({
        "processors": "transformers.generation.logits_process: RepetitionPenalty, TopK(50), TopP, MinP",
        "refused": REFUSED, "cases": cases}, indent=1) + "\n")
    return [dict(name=c["name"], generated=len(c["generated"]), stopped=c["stopped"], kept=c["kept"][:3] + c["kept"][-3:],
                 differs=c["differs_from_defaults"], boundary=c["min_boundary_distance"], top_p_margin=c["min_top_p_margin"])
            for c in cases]


if __name__ == "__main__":
    print(json.dumps(write(sys.argv[1]), indent=1))
