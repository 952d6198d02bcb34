"""Goldens for NeuTTS's phonemes (issue #39, item 5): every sentence of tools/neutts/phoneme_sentences/LANG.txt
through the authors' phonemizer (phonemizer's EspeakBackend with the options of neutts's phonemizers.py, on the
system's libespeak-ng), as the raw list phonemize([text]) returns and as neutts's _to_phones makes it.

    phoneme_fixtures.py OUTFILE        (make_fixtures.py calls write(OUTFILE))
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
from tools.neutts import reference  # noqa: E402

SENTENCES = HERE / "phoneme_sentences"
LANGUAGES = ["en-us", "de", "fr-fr", "es"]


def sentences(language):
    lines = (SENTENCES / f"{language}.txt").read_text(encoding="utf-8").split("\n")
    return [line for line in lines if line.strip()]


def write(path):
    out = {"espeak_ng": reference.espeak_version(), "options": reference.PHONEMIZER_OPTIONS, "languages": {}}
    for language in LANGUAGES:
        cases = []
        for text in sentences(language):
            raw = reference.phonemizer_raw(text, language)
            cases.append({"text": text, "raw": raw, "phonemes": reference.phonemize(text, language)})
        out["languages"][language] = cases
    Path(path).write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    return {language: len(cases) for language, cases in out["languages"].items()}


if __name__ == "__main__":
    print(write(sys.argv[1]))
