#!/usr/bin/env python3
"""Goldens for CosyVoice 3's text front end (Sources/WarbleText/CosyVoice), written into OUTDIR.

    .venv/bin/python tools/cosytext/make_fixtures.py Tests/Fixtures/generated/cosytext

The reference below follows the model authors' front end (FunAudioLLM/CosyVoice,
cosyvoice/cli/frontend.py `text_normalize` and cosyvoice/utils/frontend_utils.py) as it runs without
ttsfrd or wetext. One part is stood in for: the authors spell numbers with `inflect`, Warble with its
own English normaliser; here (and in the Swift test) each digit is read as one word, so that the rest
of the path (strip, the Chinese rules, split_paragraph with 80/60/20 and no comma split, dropping
punctuation-only pieces) is compared exactly. Where the reference would fail or give nothing to say
(empty, only spaces, only punctuation), the case is marked "error".

Outputs:
  tokenizer/vocab.json, merges.txt   a small Qwen2-style byte-level BPE trained here (NFC, Qwen2's split
  tokenizer/tokenizer.json           regex, ByteLevel without regex), CosyVoice 3's first special tokens added
  tokenizer/added_tokens.json        [{"id", "content"}] for BPETokenizer(vocabulary:merges:style:addedTokens:)
  cases.json                         {"cases": [{"name", "text", "normalized", "chinese", "pieces", "counts", "error"}]}
"""

import json
import sys
import unicodedata
from pathlib import Path

import regex
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

QWEN2_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                 r"|\s*[\r\n]+|\s+(?!\S)|\s+")
# Qwen2's own added tokens, then the first of those CosyVoice3Tokenizer adds (in its order).
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|endofprompt|>", "[breath]", "<strong>", "</strong>",
           "[noise]", "[laughter]", "[cough]"]
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

CORPUS = [
    "The quick brown fox jumps over the lazy dog. A stitch in time saves nine.",
    "Speech synthesis turns written text into sound; it reads sentences one piece at a time.",
    "She sells sea shells by the sea shore, and the shells she sells are surely sea shells.",
    "When the weather is fine we walk along the river, talking about books, music and the news.",
    "Numbers such as one, two, three and forty two are spelled out before the model reads them.",
    "今天天气很好，我们一起去公园散步吧。这是一个测试句子，用来检查文本前端。",
    "语音合成把文字变成声音，模型一次读一段话。北京和上海都是很大的城市。",
    "他说：“你好。”然后就走了。我喜欢编程，也喜欢音乐和电影。",
]


def train_tokenizer(out: Path) -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2_PATTERN), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=1200, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    tok.train_from_iterator(CORPUS * 10, trainer=trainer)
    tok.add_special_tokens([AddedToken(t, normalized=False) for t in SPECIAL])
    d = out / "tokenizer"
    d.mkdir(parents=True, exist_ok=True)
    tok.save(str(d / "tokenizer.json"))
    tok.model.save(str(d))
    added = [{"id": tok.token_to_id(t), "content": t} for t in SPECIAL]
    (d / "added_tokens.json").write_text(json.dumps(added, ensure_ascii=False, indent=1))
    return tok


# --- the reference (the authors' frontend_utils, as this project reads them) ---

def contains_chinese(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


def spell_digits(text: str) -> str:
    """The stand-in for spell_out_number: each run of str.isdigit characters, one word per digit."""
    out, run = [], []
    for c in text + "\0":
        if c.isdigit():
            run.append(c)
            continue
        if run:
            out.append(" ".join(DIGITS[unicodedata.digit(d)] for d in run))
            run = []
        out.append(c)
    return "".join(out[:-1])


def replace_blank(text: str) -> str:
    kept = []
    for i, c in enumerate(text):
        if c != " ":
            kept.append(c)
        elif text[i + 1].isascii() and text[i + 1] != " " and text[i - 1].isascii() and text[i - 1] != " ":
            kept.append(c)
    return "".join(kept)


def chinese_rules(text: str) -> str:
    text = text.replace("\n", "")
    text = replace_blank(text)
    text = text.replace("²", "平方").replace("³", "立方")
    text = text.replace(".", "。").replace(" - ", "，")
    for mark in ["（", "）", "【", "】", "`"]:
        text = text.replace(mark, "")
    text = text.replace("——", " ")
    return regex.sub(r"[，,、]+$", "。", text)


def split_paragraph(text: str, count, chinese: bool, max_n=80, min_n=60, merge_n=20) -> list[str]:
    marks = ["。", "？", "！", "；", "：", "、", ".", "?", "!", ";"] if chinese else [".", "?", "!", ";", ":"]
    length = (lambda s: len(s)) if chinese else count
    if text[-1] not in marks:
        text += "。" if chinese else "."
    sentences, start = [], 0
    for i, c in enumerate(text):
        if c not in marks:
            continue
        if i > start:
            sentences.append(text[start:i + 1])
        if i + 1 < len(text) and text[i + 1] in ['"', "\u201d"]:
            sentences.append(sentences.pop() + text[i + 1])
            start = i + 2
        else:
            start = i + 1
    pieces, current = [], ""
    for s in sentences:
        if length(current + s) > max_n and length(current) > min_n:
            pieces.append(current)
            current = ""
        current += s
    if current:
        if length(current) < merge_n and pieces:
            pieces[-1] += current
        else:
            pieces.append(current)
    return pieces


def only_punctuation(text: str) -> bool:
    return bool(regex.fullmatch(r"[\p{P}\p{S}]*", text))


def front_end(text: str, count) -> dict:
    if "<|" in text and "|>" in text:
        return {"normalized": text, "chinese": None, "pieces": [text], "error": False}
    text = text.strip()
    if not text:
        return {"normalized": "", "chinese": None, "pieces": [], "error": True}
    chinese = contains_chinese(text)
    text = chinese_rules(text) if chinese else spell_digits(text)
    pieces = [p for p in split_paragraph(text, count, chinese) if not only_punctuation(p)]
    return {"normalized": text, "chinese": chinese, "pieces": pieces, "error": not pieces}


LONG_EN = ("Speech synthesis turns written text into sound. It reads the text one piece at a time, so that the "
           "first audio comes quickly. Each piece holds a few sentences; the pieces are neither too long nor too "
           "short. When the weather is fine we walk along the river, talking about books, music and the news of "
           "the day. She sells sea shells by the sea shore! Are the shells she sells surely sea shells? The quick "
           "brown fox jumps over the lazy dog. A stitch in time saves nine. That is all.")
LONG_ZH = ("今天天气很好，我们一起去公园散步吧。语音合成把文字变成声音，模型一次读一段话，这样第一段声音很快就能听到。"
           "北京和上海都是很大的城市，每天都有很多人在那里工作和生活。我喜欢编程，也喜欢音乐和电影，周末常常和朋友一起看电影。"
           "这是一个测试句子，用来检查文本前端是否按照参考实现切分段落。好的。")

CASES = {
    "en_plain": "Hello world.",
    "en_no_final_mark": "Hello world",
    "en_numbers": "I have 3 cats and 12 dogs.",
    "en_numbers_end": "The answer is 42",
    "en_year_and_minutes": "The year 2024 was long; we waited 45 minutes.",
    "en_strip": "  \t Hello there.  \n",
    "en_colon_semicolon": "Note: this; that? Yes! Done.",
    "en_quote_straight": 'He said "stop." Then he left.',
    "en_quote_curly": "She wrote \u201cfine.\u201d And that was it.",
    "en_quote_after_repeat": 'Wait!!" she cried. Then silence.',
    "en_spaced_dots": "Hello . . . world",
    "en_newline": "Line one\nLine two.",
    "en_breath_tag": "Hello [breath] world. How are you?",
    "en_emoji": "Hello \U0001F44B\U0001F3FD world!",
    "en_python_space": "\x1c Hello there. \x1f",
    "en_long": LONG_EN,
    "en_long_twice": LONG_EN + " " + LONG_EN,
    "en_long_short_tail": LONG_EN + " Bye.",
    "en_long_sentence": " ".join(["word"] * 120) + ", and so on",
    "en_only_tag_open": "a <| b. c.",
    "tag_prompt": "You are a helpful assistant.<|endofprompt|>Hello there, 3 times.",
    "tag_plain": "<|en|>  spaced 12 text  |>",
    "zh_plain": "你好，世界。",
    "zh_no_final_mark": "你好，世界",
    "zh_trailing_commas": "你好，世界，，、",
    "zh_corner_marks": "面积是100m²，体积是5m³。",
    "zh_dots": "这是第一句.这是第二句.",
    "zh_brackets": "（括号）【重点】`代码`——结束",
    "zh_blanks": "你好 世界 hello world 你好 world 。",
    "zh_newlines": "第一行\n第二行\n第三行",
    "zh_dash": "ABC - DEF 是中文。",
    "zh_quote": "他说：\u201c你好。\u201d然后就走了。",
    "zh_mixed": "我喜欢 Python 和 Swift 编程.",
    "zh_long": LONG_ZH,
    "zh_long_twice": LONG_ZH + LONG_ZH,
    "punct_only_en": "...",
    "punct_only_mixed": "?! \u2014",
    "punct_only_dash": "?!\u2014",
    "punct_only_zh": "。。。",
    "empty": "",
    "spaces_only": "   \n\t ",
}


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: make_fixtures.py OUTDIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    tok = train_tokenizer(out)

    def count(text: str) -> int:
        return len(tok.encode(text).ids)

    cases = []
    for name, text in CASES.items():
        result = front_end(text, count)
        result["counts"] = [count(p) for p in result["pieces"]]
        cases.append({"name": name, "text": text, **result})
    (out / "cases.json").write_text(json.dumps({"cases": cases}, ensure_ascii=False, indent=1))
    split = sum(len(c["pieces"]) > 1 for c in cases)
    print(f"{len(cases)} cases ({split} split into several pieces) in {out}")


if __name__ == "__main__":
    main()
