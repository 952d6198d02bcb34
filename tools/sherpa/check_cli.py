"""What the families' check_cli.py share: the files `warble transcribe --format text|json|srt` wrote for one clip
(STEM.txt, STEM.json, STEM.srt; scripts/test-cli.sh) against sherpa-onnx's text."""
import json
import sys
from pathlib import Path


def check_outputs(stem: str, golden: dict, failures: list[str]) -> dict:
    """The text output is sherpa-onnx's text; the JSON's text is too and its first segment's words lie within the
    audio; the SubRip file is one cue holding the text. Adds what differs to `failures`; returns the JSON document."""
    text = Path(f"{stem}.txt").read_text(encoding="utf-8")  # the model ids hold dots: no with_suffix
    if text != golden["text"] + "\n":
        failures.append(f"{stem}.txt: {text[:80]!r} is not sherpa-onnx's {golden['text'][:80]!r}")
    document = json.loads(Path(f"{stem}.json").read_text(encoding="utf-8"))
    if document["text"] != golden["text"]:
        failures.append(f"{stem}.json: text {document['text'][:80]!r} is not sherpa-onnx's")
    words = document["segments"][0]["words"]
    if any(w["start"] < 0 or w["end"] > document["duration"] + 1e-6 or w["start"] > w["end"] for w in words):
        failures.append(f"{stem}.json: a word outside the audio")
    srt = Path(f"{stem}.srt").read_text(encoding="utf-8")
    if golden["text"] not in srt or not srt.startswith("1\n00:00:00,000 --> "):
        failures.append(f"{stem}.srt: not one cue with sherpa-onnx's text")
    return document


def report(failures: list[str]) -> int:
    """Prints the failures to standard error; the exit status."""
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0
