#!/usr/bin/env python3
"""The cloning table of the README: for each target speaker, a Kokoro voice found from a clip with
`warble voice add`, scored on sentences the search never spoke.

    eval_cloning.py --warble BIN --out DIR [--budget 10m | --candidates N] [--seed 1] SPEAKER...

`--candidates N` stops each search after N candidates instead of a time budget, so that the result does
not depend on how busy the machine is (the time it took is still printed).

SPEAKER is `flite:VOICE` (Debian's flite: slt, rms, awb, kal16) or `warble:VOICE` (a voice `warble
say` speaks, e.g. the installed Piper voice en_US-joe-medium). Each speaker reads CLIP_TEXT (a clip of
about 10 s, of a text the search never speaks); the clone is added as `eval-NAME`.

For each speaker: the speaker similarity (d-vector cosine, `warble voice check --json`: mean over the
4 held-out sentences) of the clone and of the best stock Kokoro voice, and the word error rate through
`warble transcribe` (whisper-base) of both on those sentences (Whisper's English normaliser, as
tools/ttsbench/eval_wer.py). Prints a Markdown table and writes DIR/cloning.json.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from tools.ttsbench.eval_wer import edit_distance, fold_ordinals

CLIP_TEXT = ("Last summer we drove along the coast, stopping at every little village to buy bread and cheese, "
             "and we slept under the stars whenever the weather allowed it.")


def run(*args: str, capture: bool = True) -> str:
    done = subprocess.run(args, check=True, text=True, stdout=subprocess.PIPE if capture else None)
    return done.stdout if capture else ""


def make_clip(speaker: str, warble: str, path: Path) -> None:
    kind, _, voice = speaker.partition(":")
    if kind == "flite":
        run("flite", "-voice", voice, "-t", CLIP_TEXT, "-o", str(path))
    elif kind == "warble":
        run(warble, "say", "--quiet", "--voice", voice, "-o", str(path), CLIP_TEXT)
    else:
        raise SystemExit(f"unknown speaker {speaker!r}: flite:VOICE or warble:VOICE")


def wer(warble: str, voice: str, sentences: list[str], folder: Path) -> float:
    from whisper_normalizer.english import EnglishTextNormalizer
    normalise = EnglishTextNormalizer()
    folder.mkdir(parents=True, exist_ok=True)
    errors = words = 0
    for i, sentence in enumerate(sentences):
        wav = folder / f"{i:02d}.wav"
        run(warble, "say", "--quiet", "--voice", voice, "-o", str(wav), sentence)
        heard = run(warble, "transcribe", "--model", "whisper-base", "--language", "en", str(wav)).strip()
        ref = fold_ordinals(normalise(sentence).split())
        hyp = fold_ordinals(normalise(heard).split())
        errors += edit_distance(ref, hyp)
        words += len(ref)
    return errors / max(1, words)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warble", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--budget", default="10m")
    parser.add_argument("--candidates", type=int, help="stop each search after N candidates (no time budget)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("speakers", nargs="+")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for speaker in args.speakers:
        name = "eval-" + speaker.replace(":", "-").replace("_", "-")
        clip = args.out / f"{name}.wav"
        make_clip(speaker, args.warble, clip)
        subprocess.run([args.warble, "voice", "remove", name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = time.monotonic()
        limit = ["--budget", "24h", "--candidates", str(args.candidates)] if args.candidates else ["--budget", args.budget]
        added = run(args.warble, "voice", "add", name, "--from", str(clip), "--model", "kokoro", *limit,
                    "--seed", args.seed, "--consent", f"synthetic voice ({speaker}), for evaluation", "--no-check",
                    "--keep-stock")  # a search that beats no stock voice is a result to measure too
        seconds = time.monotonic() - started
        print(added, file=sys.stderr)
        check = json.loads(run(args.warble, "voice", "check", name, "--json"))
        best = check["stock"][0]
        row = {
            "speaker": speaker, "clone": check["voice"]["similarity"], "best_stock_voice": best["voice"],
            "best_stock": best["similarity"], "seconds": round(seconds),
            "clone_wer": wer(args.warble, name, check["sentences"], args.out / name),
            "stock_wer": wer(args.warble, best["voice"], check["sentences"], args.out / (name + "-stock")),
            "search": [line for line in added.splitlines() if line.startswith("Searched")],
        }
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    (args.out / "cloning.json").write_text(json.dumps(rows, indent=1) + "\n")
    print("| target speaker | clone similarity | best stock voice (similarity) | gain | clone WER | stock WER | time |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['speaker']} | {r['clone']:.3f} | {r['best_stock_voice']} ({r['best_stock']:.3f}) | "
              f"{r['clone'] - r['best_stock']:+.3f} | {100 * r['clone_wer']:.1f} % | {100 * r['stock_wer']:.1f} % | "
              f"{r['seconds'] // 60} min {r['seconds'] % 60} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
