#!/usr/bin/env python3
"""Checks what `warble transcribe --model parakeet-tdt-0.6b-v3[-int8]` wrote (scripts/test-cli.sh) against sherpa-onnx's
goldens (tools/parakeet/make_fixtures.py): the text output is sherpa-onnx's text; the JSON's text and token ids are
sherpa-onnx's, its words join to the text, each starts at its first token's time and lies within the audio; the
SubRip cue holds the text (tools/sherpa/check_cli.py).

    check_cli.py GOLDENS.json WORKDIR     (WORKDIR/pk-MODEL-CLIP.{txt,json,srt})
"""
import json
import sys
from pathlib import Path

from tools.sherpa.check_cli import check_outputs, report

MODELS = {"parakeet-tdt-0.6b-v3": "f32", "parakeet-tdt-0.6b-v3-int8": "int8"}


def main(argv):
    goldens, work = json.loads(Path(argv[0]).read_text())["cases"], Path(argv[1])
    failures = []
    for model, variant in MODELS.items():
        for clip in ("short16k", "short44k", "long16k"):
            golden = next(c for c in goldens if c["clip"] == f"{clip}.wav" and c["model"] == variant)
            stem = f"{work}/pk-{model}-{clip}"
            segment = check_outputs(stem, golden, failures)["segments"][0]
            if segment["tokens"] != golden["ids"]:
                failures.append(f"{stem}.json: tokens differ from sherpa-onnx's")
            words = segment["words"]
            if "".join(w["word"] for w in words).lstrip(" ") != golden["text"].lstrip(" ") and " ?" not in golden["text"]:
                failures.append(f"{stem}.json: the words do not join to the text")
            starts = sorted(set(round(t, 2) for t in golden["timestamps"]))
            if any(round(w["start"], 2) not in starts for w in words):
                failures.append(f"{stem}.json: a word does not start at one of sherpa-onnx's token times")
    return report(failures)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
