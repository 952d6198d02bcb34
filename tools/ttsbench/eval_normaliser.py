"""How often written forms are read right (scripts/eval-normaliser.sh).

    eval_normaliser.py texts
        prints the sentences of normaliser_sentences.json, one a line (for `warble say`)
    eval_normaliser.py synth --engine piper|kokoro --out DIR [--threads 1]
        writes DIR/NN.wav for every sentence with the Python reference (piper-tts, kokoro-onnx: no text
        normalisation beyond what espeak-ng does itself)
    eval_normaliser.py score --out REPORT.json LABEL=DIR [LABEL=DIR ...]
        transcribes DIR/NN.wav with faster-whisper (whisper-base, CTranslate2, from
        $WARBLE_HOME/cache/whisper-ct2/whisper-base) and prints each LABEL's share read right, overall
        and by class

Each item of normaliser_sentences.json has the written `text`, the `reading` a person would give it
and, where English has more than one right reading, the others (`also`: "four one" for a score, "five
foot nine"). An item is read right when Whisper's transcript equals one of its readings word for
word (per-item WER 0) once both are put in the same canonical form:

1. written forms Whisper prefers are spelled as they are said, on both sides: "+" before a digit is
   "plus"; "@", "." and "/" inside an address are "at", "dot", "slash"; 5'9" is "5 feet 9 inches";
   m², cm³ are "square meters", "cubic centimeters"; a/b and ¼ are "one quarter", "two fifths", and
   "a half"/"a quarter" are "one half"/"one quarter"; a digit-dash-digit range or score is "N to N";
   "8:00" is "8" and "9:15" is "9 15"; a regnal Roman numeral ("Elizabeth II") is "the 2nd", one
   after War/Chapter/Part/Volume a cardinal; digit groups with a leading zero are spelled digit by
   digit (Whisper's normaliser drops the zero of "0147");
2. Whisper's EnglishTextNormalizer (whisper-normalizer): lower case, no punctuation, number words
   as digits ("twenty one" -> "21", "second" -> "2nd"), "Dr" -> "doctor", "St" -> "saint";
3. then: a lone "one" is "1" (the normaliser keeps "one" as a word), "foot" is "feet", "o'clock" is
   dropped, adjacent digit tokens are joined ("2 1 2 555" -> "212555", so that digits read one by one
   match the number as written) and so are runs of single letters ("w w w" -> "www", "a m" -> "am").

The share is the number of items read right over all items; the mean per-item WER against the main
reading is printed next to it.
"""

import argparse
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
from tools.ttsbench import references  # noqa: E402
from tools.ttsbench.eval_wer import edit_distance, write_wav  # noqa: E402

ITEMS = HERE / "normaliser_sentences.json"

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
DENOMINATORS = {2: ("half", "halves"), 3: ("third", "thirds"), 4: ("quarter", "quarters"), 5: ("fifth", "fifths"),
                6: ("sixth", "sixths"), 8: ("eighth", "eighths"), 10: ("tenth", "tenths"), 16: ("sixteenth", "sixteenths")}
VULGAR = {"½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5),
          "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8)}
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
CARDINAL_BEFORE_ROMAN = {"war", "chapter", "part", "volume", "act", "book", "type", "phase"}
UNITS = {"m": "meters", "km": "kilometers", "cm": "centimeters", "mm": "millimeters", "ft": "feet", "in": "inches"}


def items() -> list[dict]:
    return json.loads(ITEMS.read_text(encoding="utf-8"))


def fraction_words(numerator: int, denominator: int) -> str | None:
    if denominator not in DENOMINATORS or numerator > 12:
        return None
    name = DENOMINATORS[denominator][0 if numerator == 1 else 1]
    return f"{ONES[numerator]} {name}"


def roman_value(numeral: str) -> int | None:
    total, previous = 0, 0
    for c in reversed(numeral):
        v = ROMAN[c]
        total += -v if v < previous else v
        previous = max(previous, v)
    return total


def ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def spell_written(text: str) -> str:
    """Step 1: written forms spelled as they are said (applied to readings and transcripts alike)."""
    t = text.replace("’", "'")
    t = re.sub(r"\+(?=\d)", "plus ", t)

    def address(m):
        return re.sub(r"[@./]", lambda s: {"@": " at ", ".": " dot ", "/": " slash "}[s.group(0)], m.group(0))

    t = re.sub(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", address, t)
    t = re.sub(r"\b(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|uk|io|dev)\b(?:/[\w/-]*)?", address, t)
    t = re.sub(r"(\d+)['′]\s?(\d+)[\"″]", r"\1 feet \2 inches", t)
    t = re.sub(r"\b(\d+)\s?(km|cm|mm|m|ft|in)(?:²|\^2)", lambda m: f"{m.group(1)} square {UNITS[m.group(2)]}", t)
    t = re.sub(r"\b(\d+)\s?(km|cm|mm|m|ft|in)(?:³|\^3)", lambda m: f"{m.group(1)} cubic {UNITS[m.group(2)]}", t)

    def vulgar(m):
        whole, (a, b) = m.group(1), VULGAR[m.group(2)]
        words = fraction_words(a, b) or m.group(0)
        return f"{whole} and {words}" if whole else words

    t = re.sub(r"(?:(\d+)\s?)?([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])", vulgar, t)

    def slash(m):
        whole, words = m.group(1), fraction_words(int(m.group(2)), int(m.group(3)))
        if words is None:
            return m.group(0)
        return f"{whole} and {words}" if whole else words

    t = re.sub(r"\b(?:(\d+) )?(\d{1,2})/(\d{1,2})\b", slash, t)
    t = re.sub(r"\ba (half|quarter)\b", r"one \1", t, flags=re.I)
    t = re.sub(r"\b(\d{1,2}):00\b", r"\1", t)
    t = re.sub(r"\b(\d{1,2})[:.](\d{2})(?=\s*(?:[ap]\.?m\b|to\b|-|–))", r"\1 \2", t, flags=re.I)
    t = re.sub(r"\b(\d{1,2}):(\d{2})\b", r"\1 \2", t)
    t = re.sub(r"(?<![\d-])(\d+)\s?[-–—]\s?(\d+)(?![\d-])", r"\1 to \2", t)

    def roman(m):
        before, numeral = m.group(1), m.group(2)
        value = roman_value(numeral)
        if before.lower() in CARDINAL_BEFORE_ROMAN:
            return f"{before} {value}"
        return f"{before} the {ordinal_suffix(value)}"

    t = re.sub(r"\b([A-Za-z]+) ([IVXLC]{2,}|I)\b(?!')", roman, t)
    t = re.sub(r"\b0\d+\b", lambda m: " ".join(ONES[int(d)] for d in m.group(0)), t)
    return t


def canonical(text: str, normalize) -> list[str]:
    words = [{"one": "1", "foot": "feet"}.get(w, w) for w in normalize(spell_written(text)).split() if w != "oclock"]
    out: list[str] = []
    for w in words:  # digits read one by one match the number as written
        if out and w.isdigit() and out[-1].lstrip("+").isdigit():
            out[-1] += w
        else:
            out.append(w)
    merged: list[str] = []
    run = False  # the last token is a run of single letters
    for w in out:  # "w w w" -> "www", "a m" -> "am"
        single = len(w) == 1 and w.isalpha()
        if single and run:
            merged[-1] += w
        else:
            merged.append(w)
            run = single
    return merged


def synth(args) -> None:
    ref = references.load(args.engine, args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i, item in enumerate(items()):
        write_wav(out / f"{i:02d}.wav", ref.speak(item["text"]), ref.sample_rate)


def score(args) -> None:
    from faster_whisper import WhisperModel
    from whisper_normalizer.english import EnglishTextNormalizer

    normalize = EnglishTextNormalizer()
    model_dir = references.warble_home() / "cache/whisper-ct2/whisper-base"
    if not (model_dir / "model.bin").exists():
        raise SystemExit(f"{model_dir} is missing; run tools/whisper/install.sh (scripts/setup.sh does)")
    model = WhisperModel(str(model_dir), device="cpu", compute_type="float32", cpu_threads=args.threads)
    all_items = items()
    report = {"whisper": "whisper-base (ct2, float32, beam 5, temperature 0)",
              "right": "per-item WER 0 against one of the readings, after the canonical form of eval_normaliser.py",
              "sets": {}}
    classes = list(dict.fromkeys(item["class"] for item in all_items))
    lines = []
    for spec in args.sets:
        label, _, directory = spec.partition("=")
        rows, right, wers = [], 0, []
        by_class = {c: [0, 0] for c in classes}
        for i, item in enumerate(all_items):
            wav = Path(directory) / f"{i:02d}.wav"
            if not wav.exists():
                raise SystemExit(f"{wav} is missing (expected one NN.wav per item of {ITEMS})")
            segments, _ = model.transcribe(str(wav), language="en", beam_size=5, temperature=0.0,
                                           condition_on_previous_text=False, vad_filter=False)
            heard = " ".join(s.text.strip() for s in segments)
            hyp = canonical(heard, normalize)
            readings = [item["reading"]] + item.get("also", [])
            refs = [canonical(r, normalize) for r in readings]
            ok = any(r == hyp for r in refs)
            wer = edit_distance(refs[0], hyp) / max(len(refs[0]), 1)
            right += ok
            wers.append(wer)
            by_class[item["class"]][0] += ok
            by_class[item["class"]][1] += 1
            rows.append({"class": item["class"], "text": item["text"], "heard": heard, "right": ok, "wer": wer,
                         "canonical_heard": " ".join(hyp), "canonical_reading": " ".join(refs[0])})
        share = right / len(all_items)
        report["sets"][label] = {"share_right": share, "right": right, "items": len(all_items),
                                 "mean_wer": sum(wers) / len(wers),
                                 "by_class": {c: {"right": r, "items": n} for c, (r, n) in by_class.items()},
                                 "items_detail": rows}
        line = (f"{label:16s} read right {share * 100:5.1f} % ({right}/{len(all_items)}); "
                f"mean per-item WER {sum(wers) / len(wers) * 100:5.1f} %")
        print(line, flush=True)
        lines.append((label, by_class))
    print("\nby class (right / items):")
    print(f"{'class':20s}" + "".join(f"{label:>18s}" for label, _ in lines))
    for c in classes:
        print(f"{c:20s}" + "".join(f"{f'{bc[c][0]}/{bc[c][1]}':>18s}" for _, bc in lines))
    Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("texts")
    s = sub.add_parser("synth")
    s.add_argument("--engine", required=True, choices=["piper", "kokoro"])
    s.add_argument("--out", required=True)
    s.add_argument("--threads", type=int, default=1)
    c = sub.add_parser("score")
    c.add_argument("--out", required=True)
    c.add_argument("--threads", type=int, default=2)
    c.add_argument("sets", nargs="+", metavar="LABEL=DIR")
    args = parser.parse_args()
    if args.command == "texts":
        print("\n".join(item["text"] for item in items()))
    elif args.command == "synth":
        synth(args)
    else:
        score(args)


if __name__ == "__main__":
    main()
