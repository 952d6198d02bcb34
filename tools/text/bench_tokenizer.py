#!/usr/bin/env python3
"""Python side of scripts/bench-tokenizer.sh.

    bench_tokenizer.py make-text OUT_FILE             writes ~1 MB of corpus text (deterministic)
    bench_tokenizer.py run TOKENIZER_JSON TEXT RUNS MODE
        prints "<median seconds> <token count> <bytes>"; MODE "text" encodes the whole text in one call,
        "lines" encodes it line by line (one call per line, as a TTS front end does per sentence)
"""

import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ["TOKENIZERS_PARALLELISM"] = "false"
os.environ["RAYON_NUM_THREADS"] = "1"


def make_text(out: str) -> None:
    from tools.text.corpus import build_corpus
    lines = build_corpus()
    rng = random.Random(7)
    parts, size = [], 0
    while size < 1_000_000:
        line = rng.choice(lines)
        parts.append(line)
        size += len(line.encode()) + 1
    Path(out).write_text("\n".join(parts), "utf-8")


def run(tokenizer_json: str, text_file: str, runs: int, mode: str) -> None:
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(tokenizer_json)
    text = Path(text_file).read_bytes().decode("utf-8")  # no newline translation
    lines = text.split("\n")
    times, count = [], 0
    for _ in range(runs):
        # A fresh tokenizer each run: its word cache starts cold, as on the Swift side.
        tok = Tokenizer.from_file(tokenizer_json)
        start = time.perf_counter()
        if mode == "lines":
            count = sum(len(tok.encode(line, add_special_tokens=False).ids) for line in lines)
        else:
            count = len(tok.encode(text, add_special_tokens=False).ids)
        times.append(time.perf_counter() - start)
    print(statistics.median(times), count, len(text.encode()))


if __name__ == "__main__":
    if sys.argv[1] == "make-text":
        make_text(sys.argv[2])
    else:
        run(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
