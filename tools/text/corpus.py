"""Deterministic multilingual test corpus for the tokenizer parity tests.

`build_corpus(n)` returns `n` strings (each may hold newlines and runs of spaces) mixing real sentences
in many scripts with code, numbers, emoji, whitespace runs and odd Unicode. The same seed always gives
the same corpus, so goldens made from it are reproducible.
"""

import random

SENTENCES = [
    # English
    "The quick brown fox jumps over the lazy dog.",
    "It's 4:30 pm and we're late; they'll wait, won't they?",
    "Dr. Smith paid $12.50 for 3.5 kg of apples on 3/14/2025.",
    "I'd've thought you'd know: the meeting's at 10 a.m. in Room 42B.",
    "Warble turns text into speech, on device, without a network.",
    "HELLO WORLD!!! What's UP??? I'M SHOUTING'S FINE.",
    "Mr. O'Neil's dog—a spaniel—barked at the mail-carrier's van.",
    "She said, \"Don't forget the 2nd and 3rd items,\" then left.",
    "Version 2.0.1-beta was released on 2025-03-14T09:30:00Z.",
    "e.g., i.e., etc., vs. and St. Louis are abbreviations.",
    # Chinese
    "今天天气很好，我们去公园散步吧。",
    "语音合成技术可以把文字转换成自然的声音。",
    "他在2024年3月14日买了三本书，花了¥128.50。",
    "请问，最近的地铁站在哪里？",
    # Japanese
    "こんにちは、世界！今日はいい天気ですね。",
    "東京都渋谷区で新しいカフェがオープンしました。",
    "カタカナとひらがなと漢字が混ざった文章です。",
    "ｶﾀｶﾅ（半角）と全角のＡＢＣ１２３も混ぜます。",
    # Korean
    "안녕하세요, 만나서 반갑습니다.",
    "음성 합성 엔진은 문장을 읽어 줍니다. 감사합니다!",
    "서울특별시 종로구 세종대로 175",
    # Arabic / Hebrew / Persian
    "مرحبا بالعالم! كيف حالك اليوم؟",
    "اللغة العربية تكتب من اليمين إلى اليسار.",
    "שלום עולם, מה שלומך?",
    "سلام دنیا، حال شما چطور است؟",
    # European languages with diacritics
    "Größenwahn ist keine Lösung, sagte der Bürgermeister.",
    "L'été dernier, nous sommes allés à Besançon en août.",
    "¿Dónde está la biblioteca? ¡Allí, señor!",
    "Zażółć gęślą jaźń — pchnąć w tę łódź jeża.",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο.",
    "Ánh sáng mặt trời chiếu qua cửa sổ.",
    "Türkçe karakterler: ğüşöçİı.",
    # Indic / South-East Asian
    "नमस्ते दुनिया, आप कैसे हैं?",
    "ভাষা আন্দোলন ১৯৫২ সালে হয়েছিল।",
    "สวัสดีครับ ยินดีที่ได้รู้จัก",
    "வணக்கம் உலகம்",
    "ሰላም ልዑል",
    "Բարեւ աշխարհ",
    "გამარჯობა მსოფლიო",
    # Emoji
    "I love this! 😀😃😄 🎉🎉",
    "Family: 👨\u200d👩\u200d👧\u200d👦 flags: 🇫🇷🇯🇵 skin: 👍🏽👋🏿",
    "🙂 emoji at start and end 🙃",
    "Keycaps 1️⃣2️⃣3️⃣ and ❤️ vs ❤ and ☺︎",
    # Code
    "def f(x):\n    return x ** 2 + 1  # square plus one\n",
    "for (int i = 0; i < n; ++i) { sum += a[i]; }",
    "const url = `https://example.com/api?q=${query}&lang=en`;",
    "if let x = y, !x.isEmpty { print(\"\\(x)\") }",
    "SELECT id, name FROM users WHERE age >= 18 ORDER BY name;",
    "<div class=\"note\">&amp; &lt;tag&gt; &#x1F600;</div>",
    "{\"key\": [1, 2.5, -3e10, true, null], \"nested\": {\"a\": \"b\"}}",
    "$ ls -la /usr/lib | grep -i 'espeak' && echo done",
    "x+=1;y-=2;z*=3;w/=4;v%=5;u<<=6;t>>=7;",
    # Numbers
    "0 1 12 123 1234 12345 123456 1234567 12345678 123456789 1234567890",
    "3.14159265358979 -2.71828 +1e-10 0x1F 0b1010 1_000_000",
    "Phone: +1 (555) 123-4567, ext. 89; fax 555.987.6543",
    "١٢٣٤٥ ٠٫٥ ۱۲۳ ०१२३ 一二三 ⅠⅡⅢ ½ ¾ ²³",
    "The years 1999, 2000, 2024 and 1066 AD; 50% off; 3rd, 21st, 102nd.",
    # Odd Unicode
    "Combining: e\u0301 a\u0308 o\u0302\u0323 n\u0303 — NFC vs NFD",
    "Zero width: a\u200bb\u200cc\u200dd\ufeffe",
    "Bidi: \u202eabc\u202c \u2067xyz\u2069 \u200f!",
    "Ligatures: ﬁ ﬂ ﬀ ﬃ Ǆ ǅ ǆ ẞ ß",
    "Math: ∀x∈ℝ, ∃y: x²+y²=1 ⇒ ∫₀¹ f(x)dx ≈ 0.5",
    "Box: ┌─┐│ │└─┘ ▲▼◆ ★☆ ♠♣♥♦",
    "Replacement: \ufffd and private use \ue000\uf8ff and noncharacter \ufdd0",
    "Control: a\tb\x0bc\x0cd\re\x85f\u2028g\u2029h",
    "Spaces: a\u00a0b\u2003c\u3000d\u202fe\u205ff\u1680g",
    "Old Italic 𐌀𐌁𐌂 and Gothic 𐌰𐌱 and CJK Ext B 𠀀𠀁 and math 𝐀𝐁𝐂",
    "Mixed: English中文日本語한국어العربية",
    "Contractions: I'M, YOU'RE, it'S, we'Ve, THEY'LL, she'D",
]

WHITESPACE = [
    " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "\n   \n", "        ", "\t\t ", "\u3000", "\n\n\n",
]

ADDED = ["<|endofprompt|>", "<|speech_123|>", "<|endoftext|>", "<|speech_7|>", "<|startoftranscript|>",
         "<|notimestamps|>", "<|en|>"]

WORDS = [w for s in SENTENCES for w in s.split()]


def _random_scalar(rng: random.Random) -> str:
    blocks = [(0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x6FF), (0x900, 0x97F),
              (0x3040, 0x30FF), (0x4E00, 0x4FFF), (0xAC00, 0xAD00), (0x1F300, 0x1F64F), (0x2000, 0x206F),
              (0x300, 0x36F), (0xFF00, 0xFFEF), (0x1D400, 0x1D4FF)]
    lo, hi = rng.choice(blocks)
    return chr(rng.randint(lo, hi))


def _line(rng: random.Random, i: int) -> str:
    kind = i % 10
    if kind in (0, 1, 2):
        return rng.choice(SENTENCES)
    if kind == 3:
        return rng.choice(WHITESPACE).join(rng.sample(SENTENCES, 2))
    if kind == 4:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
    if kind == 5:
        parts = [rng.choice(SENTENCES)]
        for _ in range(rng.randint(1, 3)):
            parts.append(rng.choice(ADDED))
            parts.append(rng.choice(["", " ", "  "]) + rng.choice(WORDS))
        return "".join(parts)
    if kind == 6:
        return "".join(rng.choice(WHITESPACE) + rng.choice(WORDS) for _ in range(rng.randint(1, 6))) + \
            rng.choice(WHITESPACE)
    if kind == 7:
        return "".join(_random_scalar(rng) for _ in range(rng.randint(1, 30)))
    if kind == 8:
        n = rng.randint(0, 10 ** rng.randint(1, 12))
        return rng.choice(["{}", "{} items", "${:,}", "{}%", "-{}", "#{}", "{}th"]).format(n) + \
            rng.choice(["", ".", "\n", "  "])
    return rng.choice(SENTENCES).upper() if rng.random() < 0.5 else rng.choice(SENTENCES).lower()


def build_corpus(n: int = 2200, seed: int = 20250314) -> list[str]:
    rng = random.Random(seed)
    fixed = list(SENTENCES) + WHITESPACE + ADDED + ["", "a", "'s", " 's", "''", "  hello", "hello  ", "\n"]
    lines = fixed + [_line(rng, i) for i in range(n - len(fixed))]
    return lines
