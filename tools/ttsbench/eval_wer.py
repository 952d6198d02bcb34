"""Word error rate of synthesised speech, transcribed by faster-whisper (scripts/eval-tts.sh).

    eval_wer.py synth --engine piper|kokoro [--voice jm_kumo] --out DIR [--threads 1]
        writes DIR/NN.wav for every sentence of wer_sentences.json with the Python reference
    eval_wer.py score --out REPORT.json LABEL=DIR [LABEL=DIR ...]
        transcribes DIR/NN.wav with faster-whisper (whisper-base, CTranslate2, from
        $WARBLE_HOME/cache/whisper-ct2/whisper-base) and prints the WER of each LABEL

Normalisation for WER (applied to the sentence and to the transcript alike): Whisper's
EnglishTextNormalizer (the whisper-normalizer package): lowercase, punctuation removed, spelled-out
numbers turned into digits ("twenty one" -> "21", "third" -> "3rd"), "$45" kept as a currency token,
British spellings made American, "doctor"/"dr" and similar titles unified, filler words dropped.
WER = (substitutions + deletions + insertions) / words of the normalised sentences, summed over
the set (corpus WER), with a word-level Levenshtein alignment.

Two figures per set: strict (the normaliser alone) and with ordinal suffixes folded ("15th" -> "15",
on both sides). The sentences write dates as "January 15"; read aloud as "January fifteenth" (the
usual English reading, and Warble's normaliser's), Whisper writes "15th", which the strict figure
counts as an error although nothing was misheard. The folded figure is the one the target is judged
on; both are printed and kept in the report.
"""

import argparse
import json
import re
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
from tools.common.edits import edit_distance  # noqa: E402
from tools.common.wav import write_pcm16  # noqa: E402
from tools.ttsbench import references  # noqa: E402

SENTENCES = HERE / "wer_sentences.json"


def sentences() -> list[str]:
    return json.loads(SENTENCES.read_text(encoding="utf-8"))


def write_wav(path: Path, audio: np.ndarray, sample_rate: int) -> None:
    write_pcm16(path, (np.clip(audio, -1, 1) * 32767).astype("<i2"), sample_rate)


def synth(args) -> None:
    ref = references.load(args.engine, args.threads, args.voice)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(sentences()):
        write_wav(out / f"{i:02d}.wav", ref.speak(text), ref.sample_rate)


ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")


def fold_ordinals(words: list[str]) -> list[str]:
    return [ORDINAL.sub(r"\1", w) for w in words]


def score(args) -> None:
    from faster_whisper import WhisperModel
    from whisper_normalizer.english import EnglishTextNormalizer

    normalize = EnglishTextNormalizer()
    model_dir = references.warble_home() / "cache/whisper-ct2/whisper-base"
    if not (model_dir / "model.bin").exists():
        raise SystemExit(f"{model_dir} is missing; run tools/whisper/install.sh (scripts/setup.sh does)")
    model = WhisperModel(str(model_dir), device="cpu", compute_type="float32", cpu_threads=args.threads)
    texts = sentences()
    report = {"normalisation": "whisper_normalizer.english.EnglishTextNormalizer on both sides; "
              "errors_folded: ordinal suffixes after digits dropped on both sides", "whisper": "whisper-base (ct2, float32, beam 5, temperature 0)", "sets": {}}
    for spec in args.sets:
        label, _, directory = spec.partition("=")
        edits = folded_edits = words = 0
        rows = []
        for i, text in enumerate(texts):
            wav = Path(directory) / f"{i:02d}.wav"
            if not wav.exists():
                raise SystemExit(f"{wav} is missing (expected one NN.wav per sentence of {SENTENCES})")
            segments, _ = model.transcribe(str(wav), language="en", beam_size=5, temperature=0.0,
                                           condition_on_previous_text=False, vad_filter=False)
            heard = " ".join(s.text.strip() for s in segments)
            ref_words, hyp_words = normalize(text).split(), normalize(heard).split()
            e = edit_distance(ref_words, hyp_words)
            folded = edit_distance(fold_ordinals(ref_words), fold_ordinals(hyp_words))
            edits += e
            folded_edits += folded
            words += len(ref_words)
            rows.append({"sentence": text, "heard": heard, "errors": e, "errors_folded": folded, "words": len(ref_words)})
        wer, wer_folded = edits / max(words, 1), folded_edits / max(words, 1)
        report["sets"][label] = {"wer": wer, "errors": edits, "wer_folded": wer_folded, "errors_folded": folded_edits,
                                 "words": words, "sentences": rows}
        print(f"{label:32s} WER {wer_folded * 100:5.1f} % ordinals folded ({folded_edits} errors / {words} words); "
              f"strict {wer * 100:5.1f} % ({edits})", flush=True)
    Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("synth")
    s.add_argument("--engine", required=True, choices=["piper", "kokoro"])
    s.add_argument("--voice")
    s.add_argument("--out", required=True)
    s.add_argument("--threads", type=int, default=1)
    c = sub.add_parser("score")
    c.add_argument("--out", required=True)
    c.add_argument("--threads", type=int, default=2)
    c.add_argument("sets", nargs="+", metavar="LABEL=DIR")
    args = parser.parse_args()
    synth(args) if args.command == "synth" else score(args)


if __name__ == "__main__":
    main()
