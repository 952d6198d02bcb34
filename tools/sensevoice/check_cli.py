#!/usr/bin/env python3
"""Checks what `warble transcribe --model sensevoice-small[-int8]` wrote (scripts/test-cli.sh) against sherpa-onnx's
goldens (tools/sensevoice/make_fixtures.py): the text output is sherpa-onnx's text, the JSON's text, token ids and
tags are sherpa-onnx's and every word lies within the audio, the SubRip cue holds the text (tools/sherpa/check_cli.py).

    check_cli.py GOLDENS.json WORKDIR     (WORKDIR/sv-MODEL-CLIP.{txt,json,srt})
"""
import json
import sys
from pathlib import Path

from tools.sherpa.check_cli import check_outputs, report

MODELS = {"sensevoice-small": "model.onnx", "sensevoice-small-int8": "model.int8.onnx"}


def main(argv):
    goldens, work = json.loads(Path(argv[0]).read_text())["cases"], Path(argv[1])
    failures = []
    for model, graph in MODELS.items():
        for clip in ("short16k", "short44k", "long16k"):
            golden = next(c for c in goldens if c["clip"] == f"{clip}.wav" and c["model"] == graph and c["language"] == "auto")
            stem = f"{work}/sv-{model}-{clip}"
            segment = check_outputs(stem, golden, failures)["segments"][0]
            tags = {"language": golden["lang"][2:-2], "emotion": golden["emotion"][2:-2], "event": golden["event"][2:-2]}
            if segment["tokens"] != golden["ids"] or segment["tags"] != tags:
                failures.append(f"{stem}.json: tokens or tags differ from sherpa-onnx's")
    return report(failures)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
