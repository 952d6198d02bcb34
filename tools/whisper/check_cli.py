#!/usr/bin/env python3
"""Checks what `warble transcribe --model whisper-large-v3[-turbo]` wrote (scripts/test-cli.sh) for the random
miniatures pulled from the Hub imitation against faster-whisper's transcripts of the same repositories
(tools/whisper/random_large.py's index.json): the text output holds faster-whisper's segments, one a line; the
JSON's token ids and text are faster-whisper's.

    check_cli.py INDEX.json WORKDIR     (WORKDIR/wl-MODEL.{txt,json}, clip de_wetter, language de; the models
                                         pulled into WORKDIR/pulled)
"""
import json
import sys
from pathlib import Path

MODELS = ("whisper-large-v3", "whisper-large-v3-turbo")
CASES = {"txt": "greedy_timestamps", "json": "beam5_timestamps"}


def main(argv):
    index, work = json.loads(Path(argv[0]).read_text(encoding="utf-8")), Path(argv[1])
    failures = []
    for model in MODELS:
        # The pulled model was converted from the bytes faster-whisper transcribed (the maker is seeded).
        manifest = json.loads((work / "pulled" / "models" / model / "manifest.json").read_text(encoding="utf-8"))
        if manifest["derivedFrom"]["files"]["model.bin"] != index["models"][model]["model_bin_sha256"]:
            failures.append(f"{model}: the Hub imitation's model.bin is not the one faster-whisper transcribed")
        clip = index["models"][model]["clips"]["de_wetter"]
        golden = clip[CASES["txt"]]
        path = work / f"wl-{model}.txt"
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        expected = [s["text"].strip() for s in golden["segments"] if s["text"].strip()]
        if lines != expected:
            failures.append(f"{path}: {lines[:3]!r} are not faster-whisper's segments {expected[:3]!r}")
        golden = clip[CASES["json"]]
        path = work / f"wl-{model}.json"
        document = json.loads(path.read_text(encoding="utf-8"))
        tokens = [t for s in document["segments"] for t in s["tokens"]]
        if tokens != golden["tokens"]:
            failures.append(f"{path}: tokens {tokens[:10]} are not faster-whisper's {golden['tokens'][:10]}")
        if document["text"].strip() != golden["text"]:
            failures.append(f"{path}: text {document['text'][:60]!r} is not faster-whisper's {golden['text'][:60]!r}")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
