#!/usr/bin/env python3
"""Checks what `warble transcribe --model sensevoice-small[-int8]` wrote (scripts/test-cli.sh) against sherpa-onnx's
goldens (tools/sensevoice/make_fixtures.py): the text output is sherpa-onnx's text, the JSON's text, token ids and
tags are sherpa-onnx's and every word lies within the audio, the SubRip cue holds the text.

    check_cli.py GOLDENS.json WORKDIR     (WORKDIR/sv-MODEL-CLIP.{txt,json,srt})
"""
import json
import sys
from pathlib import Path

MODELS = {"sensevoice-small": "model.onnx", "sensevoice-small-int8": "model.int8.onnx"}


def main(argv):
    goldens, work = json.loads(Path(argv[0]).read_text())["cases"], Path(argv[1])
    failures = []
    for model, graph in MODELS.items():
        for clip in ("short16k", "short44k", "long16k"):
            golden = next(c for c in goldens if c["clip"] == f"{clip}.wav" and c["model"] == graph and c["language"] == "auto")
            stem = work / f"sv-{model}-{clip}"
            text = stem.with_suffix(".txt").read_text(encoding="utf-8")
            if text != golden["text"] + "\n":
                failures.append(f"{stem}.txt: {text[:80]!r} is not sherpa-onnx's {golden['text'][:80]!r}")
            document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
            segment = document["segments"][0]
            tags = {"language": golden["lang"][2:-2], "emotion": golden["emotion"][2:-2], "event": golden["event"][2:-2]}
            if document["text"] != golden["text"] or segment["tokens"] != golden["ids"] or segment["tags"] != tags:
                failures.append(f"{stem}.json: text, tokens or tags differ from sherpa-onnx's")
            if any(w["start"] < 0 or w["end"] > document["duration"] + 1e-6 or w["start"] > w["end"] for w in segment["words"]):
                failures.append(f"{stem}.json: a word outside the audio")
            srt = stem.with_suffix(".srt").read_text(encoding="utf-8")
            if golden["text"] not in srt or not srt.startswith("1\n00:00:00,000 --> "):
                failures.append(f"{stem}.srt: not one cue with sherpa-onnx's text")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
