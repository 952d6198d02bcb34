#!/usr/bin/env python3
"""Synthetic CosyVoice 3 model directory and goldens (issue #20). Usage: make_fixtures.py OUTDIR

Writes OUTDIR/repo (the community export's files as small synthetic graphs + a toy Qwen2 tokenizer),
OUTDIR/variants, OUTDIR/golden (reference.py over those graphs, fp32 and fp16) and OUTDIR/seedapp.
Layout, graph semantics, golden formats and tolerances: tools/cosyvoice3/README.md.
"""
import json
import struct
import sys
import time
from pathlib import Path

import numpy as np
import onnx

from tools.common.wav import write_pcm16
from tools.common.goldens import Golden
from tools.cosyvoice3 import graphs
from tools.cosyvoice3 import reference
from tools.cosyvoice3 import special_tokens

SPECIAL_TOKENS = {"<|endoftext|>": 151643, "<|im_start|>": 151644, "<|im_end|>": 151645, "<|endofprompt|>": 151646}
# What the Qwen2 tokenizer_config.json copied beside the real graphs lists: Qwen2's own three, without
# <|endofprompt|> (the authors' tokenizer adds it and the rest at run time; special_tokens.py).
QWEN2_ADDED = {t: i for t, i in SPECIAL_TOKENS.items() if t != "<|endofprompt|>"}
SPECIAL_CASES = [
    "You are a helpful assistant.<|endofprompt|>[breath]Hello [laughter] there, <strong>yes</strong>.",
    "<|endofsystem|>[AA1][zh][ǜ] and [quick_breath]<laughter>ha</laughter>",
    "[noise][cough] plain text [not a token] <|im_start|>user<|im_end|>",
]
QWEN2_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                 r"|\s*[\r\n]+|\s+(?!\S)|\s+")
CORPUS = """The quick brown fox jumps over the lazy dog. You are a helpful assistant.
Speech synthesis turns written text into spoken audio, one sentence at a time.
A voice can be cloned from a short reference recording and its transcript.
The weather today is clear and warm, with a light breeze from the west.
She sells sea shells by the sea shore, and the shells she sells are surely sea shells.
Please read the following instructions carefully before you begin the test.
It was the best of times, it was the worst of times, it was the age of wisdom.
Numbers such as 12, 345 and 6789 are spelled out before they are spoken.
Hello world, this is a small test of the speech synthesis pipeline on the device.
Good morning! How are you doing today? I hope that everything is going well for you.
The model reads the text, predicts speech tokens, and a vocoder turns them into sound.
"""
PROMPT_TRANSCRIPT = "The quick brown fox jumps over the lazy dog, and then it runs away."
SYSTEM = "You are a helpful assistant.<|endofprompt|>"
CASES = [
    dict(name="zero_shot", text="Hello world, this is a small test of the speech synthesis pipeline on the device. "
         "The model reads the text, predicts speech tokens, and a vocoder turns them into sound. "
         "Good morning, I hope that everything is going well. Thank you for listening to this short example.",
         seed=1, voice=True),
    dict(name="zero_shot_seed7", text="Good morning! How are you doing today?", seed=7, voice=True),
    dict(name="cross_lingual", text=SYSTEM + "Please read the instructions.", seed=3, voice=False),
]
NOISE_FRAMES = 4000
# 4.7 s, not 5: 117 prompt tokens, so the first streaming chunk is padded (hop 25 + 8) as the authors do.
CLIP_SECONDS = 4.7
TEXT_CASES = [
    "Hello world", " leading space", "trailing space ", "two  spaces\tand a tab", "line one\nline two\r\n\n",
    "It's, we'll, they'RE, I'd", "12345 and 3.14159", "café naïve Ångström", "e\u0301 (combining, NFC → é)",
    "中文测试，句号。", "emoji 🙂 and 👍🏽", "You are a helpful assistant.<|endofprompt|>Hi.",
    "<|im_start|>user<|im_end|><|endoftext|>", "!!!???...", "",
]


def train_tokenizer(out):
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2_PATTERN), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=256 + 400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False, special_tokens=[])
    tok.train_from_iterator([CORPUS] * 3, trainer)
    tok.model.save(str(out))
    config = {
        "add_bos_token": False, "add_prefix_space": False, "bos_token": None,
        "clean_up_tokenization_spaces": False, "eos_token": "<|endoftext|>", "errors": "replace",
        "model_max_length": 32768, "pad_token": "<|endoftext|>", "split_special_tokens": False,
        "tokenizer_class": "Qwen2Tokenizer", "unk_token": None,
        "additional_special_tokens": [t for t in QWEN2_ADDED if t != "<|endoftext|>"],
        "added_tokens_decoder": {str(i): {"content": t, "lstrip": False, "normalized": False, "rstrip": False,
                                          "single_word": False, "special": True} for t, i in QWEN2_ADDED.items()},
    }
    (out / "tokenizer_config.json").write_text(json.dumps(config, indent=2) + "\n")
    return tok


def authors_tokenizer(tok):
    """The fixture tokenizer with Qwen2's three added tokens at their ids, then the authors' special tokens
    added as their CosyVoice3Tokenizer adds them (`tokenizers`' add_special_tokens, which transformers'
    fast tokenizer calls): each unknown one takes the next id."""
    from tokenizers import AddedToken, Tokenizer
    spec = json.loads(tok.to_str())
    # tokenizers numbers added tokens from the model's vocabulary size on, as Qwen2's real files have it
    # (151,643 pieces, then the three): fill the small fixture vocabulary up to 151,643 with unreachable
    # pieces so that the three keep their real ids.
    vocab = spec["model"]["vocab"]
    vocab.update({f"\u0000filler{i}": i for i in range(len(vocab), min(QWEN2_ADDED.values()))})
    spec["added_tokens"] = [dict(id=i, content=t, single_word=False, lstrip=False, rstrip=False, normalized=False, special=True)
                            for t, i in QWEN2_ADDED.items()]
    authors = Tokenizer.from_str(json.dumps(spec))
    authors.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in special_tokens.AUTHORS])
    return authors


def encode(tok, text):
    """Qwen2 encoding: special tokens by string, the rest byte-level BPE; no BOS/EOS."""
    ids, rest = [], text
    while rest:
        hits = [(rest.find(s), s) for s in SPECIAL_TOKENS if s in rest]
        if not hits:
            ids += tok.encode(rest, add_special_tokens=False).ids
            break
        at, special = min(hits)
        if at:
            ids += tok.encode(rest[:at], add_special_tokens=False).ids
        ids.append(SPECIAL_TOKENS[special])
        rest = rest[at + len(special):]
    return ids


def clip_signal(rate, seconds=CLIP_SECONDS):
    """A band-limited synthetic voice-like signal (harmonics below 6 kHz of a gliding f0, syllable
    envelope), the same continuous signal at any rate; stereo as mid ± side."""
    t = np.arange(int(round(seconds * rate))) / rate
    phase = 2 * np.pi * (140 * t - 30 / (2 * np.pi * 0.7) * np.cos(2 * np.pi * 0.7 * t))  # ∫ f0
    envelope = 0.5 + 0.5 * np.sin(2 * np.pi * 3.1 * t) ** 2
    mid = np.zeros_like(t)
    for k in range(1, 30):
        amp = 0.25 / k * (1 + 0.5 * np.sin(2 * np.pi * (0.3 + 0.11 * k) * t + k))
        mid += amp * np.sin(k * phase)
    mid *= envelope * 0.5
    side = 0.03 * np.sin(2 * np.pi * 440 * t)
    return mid, side


def write_wav(path, left, right, rate):
    frames = np.stack([left, right], axis=1)
    write_pcm16(path, np.clip(np.round(frames * 32767), -32768, 32767), rate)


def equal_ranges(a, b, tol=1e-5):
    """[start, end) ranges of the first axis where a and b agree (max abs < tol)."""
    diff = np.abs(a - b)
    same = (diff.reshape(len(diff), -1).max(axis=1) if diff.ndim > 1 else diff) < tol
    ranges, start = [], None
    for i, s in enumerate(same):
        if s and start is None:
            start = i
        if not s and start is not None:
            ranges.append([start, i])
            start = None
    if start is not None:
        ranges.append([start, len(same)])
    return ranges


def self_check(repo):
    """The graphs behave as the README says: initial over S == initial over S-1 then decode, and a
    cache in the wrong order, with a dropped or duplicated row, or a wrong mask changes the logits."""
    for variant in ("fp32", "fp16"):
        m = reference.Model(repo, variant)
        x = m.lm_input([5, 9, 151646, 77], [3, 1, 2, 4000, 17])
        n = x.shape[1]
        ones = lambda k: np.ones((1, k), np.float32)  # noqa: E731
        full, _ = m.run(m.v("llm_backbone_initial"), inputs_embeds=x, attention_mask=ones(n))
        _, kv = m.run(m.v("llm_backbone_initial"), inputs_embeds=x[:, :-1], attention_mask=ones(n - 1))
        step, new_kv = m.run(m.v("llm_backbone_decode"), inputs_embeds=x[:, -1:], attention_mask=ones(n), past_key_values=kv)
        assert np.abs(full[:, -1:] - step).max() < 1e-3, np.abs(full[:, -1:] - step).max()
        assert new_kv.dtype == (np.float16 if variant == "fp16" else np.float32) and new_kv.shape == (48, 1, 2, n, 64)
        logits = lambda h: m.run(m.v("llm_decoder"), hidden_state=h)[0][0]  # noqa: E731
        good = logits(step)
        broken = {
            "reversed": kv[:, :, :, ::-1], "dropped": kv[:, :, :, 1:], "swapped_kv": kv[:, :, ::-1],
            "duplicated": np.concatenate([kv[:, :, :, :1], kv], axis=3), "layers_reversed": kv[::-1]}
        for name, bad in broken.items():
            bad = np.ascontiguousarray(bad)
            h, _ = m.run(m.v("llm_backbone_decode"), inputs_embeds=x[:, -1:],
                         attention_mask=ones(bad.shape[3] + 1), past_key_values=bad)
            assert np.argmax(logits(h)) != np.argmax(good) or np.abs(logits(h) - good).max() > 1, name
        mask = ones(n)
        mask[0, 3] = 0
        h, _ = m.run(m.v("llm_backbone_decode"), inputs_embeds=x[:, -1:], attention_mask=mask, past_key_values=kv)
        assert np.abs(logits(h) - good).max() > 1, "mask"


def sampler_golden(gold):
    """Rows of logits with the sampler's intermediate values, to test the Swift sampler alone."""
    rng = np.random.default_rng(77)
    rows, cases = [], []
    for k in range(24):
        row = (rng.standard_normal(graphs.VOCAB_OUT) * (2 + k % 4 * 2)).astype(np.float32)
        row[rng.integers(0, graphs.SPEECH, 3)] += 12  # a few clear favourites
        if k % 2:
            row[graphs.SPEECH:] = -np.inf  # the min_len mask
        nucleus = reference.nucleus(row)
        produced = [int(t) for t in rng.integers(0, graphs.SPEECH, 12)]
        if k % 3 == 0:
            produced[-1] = nucleus[0][0]  # likely to trigger the repetition redraw
        seed = 1000 + k
        stats = {}
        token = reference.ras_sample(row, produced, reference.SplitMix64(seed), stats)
        rows.append(row)
        cases.append(dict(row=k, seed=seed, produced=produced, log_sum_exp=reference.log_sum_exp(row),
                          nucleus=[[t, p] for t, p in nucleus], first_draw=stats["first_draws"][0],
                          redrawn=stats["redrawn"][0], token=token))
    gold.array("sampler_logits.f32", np.stack(rows))
    gold.json("sampler.json", {"top_p": reference.TOP_P, "top_k": reference.TOP_K, "window": reference.WINDOW,
                               "tau_r": reference.TAU_R, "cases": cases})


def main():
    began = time.time()
    out = Path(sys.argv[1])
    repo, variants_dir, gold_dir, seed_dir = out / "repo", out / "variants", out / "golden", out / "seedapp"
    for d in (repo, variants_dir, gold_dir, seed_dir):
        d.mkdir(parents=True, exist_ok=True)
    models, variants = graphs.all_models()
    for directory, table in ((repo, models), (variants_dir, variants)):
        for name, model in table.items():
            onnx.checker.check_model(model, full_check=True)
            onnx.save(model, str(directory / name))
    tok = train_tokenizer(repo)
    self_check(repo)
    gold = Golden(gold_dir, ensure_ascii=True)
    gold.json("text_ids.json", {"cases": [{"text": t, "ids": encode(tok, t),
                                           "decoded": tok.decode(encode(tok, t)) if "<|" not in t else None}
                                          for t in TEXT_CASES]})
    authors = authors_tokenizer(tok)
    ids = {t: authors.token_to_id(t) for t in special_tokens.AUTHORS}
    assert all(ids[t] == i for t, i in SPECIAL_TOKENS.items()), (ids, "the authors' tokens must keep Qwen2's and take 151646 next")
    gold.json("special_tokens.json", {"config_lists": list(QWEN2_ADDED), "ids": ids,
                                      "cases": [{"text": t, "ids": authors.encode(t, add_special_tokens=False).ids}
                                                for t in SPECIAL_CASES]})

    # Voice front end.
    mid44, side44 = clip_signal(44100)
    write_wav(gold_dir / "voice_clip_44k_stereo.wav", mid44 + side44, mid44 - side44, 44100)
    x16, _ = clip_signal(16000)
    x24, _ = clip_signal(24000)
    v = reference.voice(repo, x16, x24)
    v_int32 = reference.voice(repo, x16, x24, tokenizer=str(variants_dir / "speech_tokenizer_v3_int32.onnx"))
    assert v_int32["speech_tokens"] == v["speech_tokens"]
    gold.array("voice_16k.f32", x16)
    gold.array("voice_24k.f32", x24)
    gold.array("voice_fbank.f32", v["fbank"])
    gold.array("voice_embedding.f32", v["embedding"])
    gold.array("voice_whisper_logmel.f32", v["logmel"])
    gold.array("voice_prompt_mel.f32", v["prompt_mel"])
    prompt_text_ids = encode(tok, SYSTEM + PROMPT_TRANSCRIPT)
    gold.json("voice.json", {
        "transcript": PROMPT_TRANSCRIPT, "prompt_text": SYSTEM + PROMPT_TRANSCRIPT, "prompt_text_ids": prompt_text_ids,
        "samples_44k": int(mid44.size), "samples_16k": int(x16.size), "samples_24k": int(x24.size),
        "fbank_frames": int(v["fbank"].shape[0]), "whisper_frames": int(v["logmel"].shape[1]),
        "speech_tokens": v["speech_tokens"], "mel_frames_full": int(v["mel_full"].shape[0]),
        "token_len": int(v["token_len"]), "prompt_tokens": v["prompt_tokens"],
        "prompt_mel_frames": int(v["prompt_mel"].shape[0])})

    # Seed app voice layout.
    (seed_dir / "speaker_embedding.bin").write_bytes(v["embedding"].astype("<f4").tobytes())
    (seed_dir / "prompt_tokens.bin").write_bytes(np.array(v["prompt_tokens"], "<i8").tobytes())
    (seed_dir / "prompt_mel.bin").write_bytes(struct.pack("<i", v["prompt_mel"].shape[0]) +
                                               v["prompt_mel"].astype("<f4").tobytes())
    (seed_dir / "prompt_text.txt").write_text(PROMPT_TRANSCRIPT)

    sampler_golden(gold)
    noise = np.random.default_rng(2025).standard_normal((1, 80, NOISE_FRAMES)).astype(np.float32)
    gold.array("flow_noise.f32", noise)
    summary = {}
    for variant in ("fp32", "fp16"):
        model = reference.Model(repo, variant)
        cases = []
        for case in CASES:
            if case["voice"]:
                p_ids, tts_ids, p_speech = prompt_text_ids, encode(tok, case["text"]), v["prompt_tokens"]
            else:
                p_ids, tts_ids, p_speech = [], encode(tok, case["text"]), []
            stats = {}
            tokens, stop, min_len, max_len, lm_len = model.generate(p_ids, tts_ids, p_speech, case["seed"], stats=stats)
            authors = model.generate(p_ids, tts_ids, p_speech, case["seed"], mask_all_stops=False)[0]
            filtered = reference.silence_filter(tokens)
            cases.append(dict(name=case["name"], text=case["text"], prompt_text=(SYSTEM + PROMPT_TRANSCRIPT) if case["voice"] else "",
                              prompt_text_ids=p_ids, tts_text_ids=tts_ids, text_ids=p_ids + tts_ids,
                              prompt_speech_tokens=list(p_speech), seed=case["seed"], min_len=min_len, max_len=max_len,
                              lm_input_len=lm_len, tokens=tokens, stop_id=stop, filtered_tokens=filtered,
                              same_with_authors_stop_mask=authors == tokens,
                              steps=dict(nucleus_size=stats["nucleus_sizes"], first_draw=stats["first_draws"],
                                         redrawn=stats["redrawn"])))
            sizes = stats.get("nucleus_sizes", [])
            summary[f"{variant}/{case['name']}"] = dict(
                n=len(tokens), stop=stop, min=min_len, max=max_len, dropped=len(tokens) - len(filtered),
                redraws=int(sum(stats["redrawn"])), nucleus_mean=float(np.mean(sizes)) if sizes else 0,
                nucleus_multi=float(np.mean(np.array(sizes) > 1)) if sizes else 0)
        gold.json(f"llm_{variant}.json", {"cases": cases})

        generated = cases[0]["filtered_tokens"]
        mel = model.flow(generated, v["prompt_tokens"], v["prompt_mel"], v["embedding"], noise)
        gold.array(f"flow_{variant}_mel.f32", mel)
        gold.json(f"flow_{variant}.json", {"case": cases[0]["name"], "tokens": generated,
                                           "prompt_tokens": v["prompt_tokens"], "embedding": "voice_embedding.f32",
                                           "prompt_mel": "voice_prompt_mel.f32", "noise": "flow_noise.f32",
                                           "mel": f"flow_{variant}_mel.f32", "mel_frames": int(mel.shape[2])})
        audio, magnitude = model.hift(mel)
        gold.array(f"hift_{variant}_audio.f32", audio[None])
        chunks = reference.stream(model, generated, v["prompt_tokens"], v["prompt_mel"], v["embedding"], noise)
        joined = np.concatenate([c["audio"] for c in chunks])
        assert joined.size == audio.size, (joined.size, audio.size)
        stream_mel = np.concatenate([c["mel"] for c in chunks], axis=2)
        gold.array(f"stream_{variant}_mel.f32", stream_mel)
        mel_ranges = equal_ranges(stream_mel[0].T, mel[0].T)
        differ = np.nonzero(np.abs(joined - audio) >= 1e-5)[0]
        prefix = int(differ[0]) if differ.size else int(audio.size)
        meta = []
        for k, c in enumerate(chunks):
            gold.array(f"stream_{variant}_chunk{k}.f32", c["audio"])
            meta.append({key: c[key] for key in ("token_offset", "hop", "tokens_used", "finalize",
                                                  "mel_frames_total", "samples")} | {"file": f"stream_{variant}_chunk{k}.f32"})
        gold.json(f"stream_{variant}.json", {"tokens": generated, "chunks": meta, "oneshot": f"hift_{variant}_audio.f32",
                                             "stream_mel": f"stream_{variant}_mel.f32",
                                             "mel_equal_ranges": mel_ranges, "audio_equal_prefix": prefix,
                                             "equal_tolerance": 1e-5,
                                             "max_abs_diff": float(np.abs(joined - audio).max())})
        summary[f"{variant}/audio"] = dict(samples=int(audio.size), clipped_mag=float(np.mean(magnitude > 100)),
                                           clamped=float(np.mean(np.abs(audio) >= 0.99)), chunks=len(chunks),
                                           mel_equal_ranges=mel_ranges, audio_equal_prefix=prefix, max_diff=float(np.abs(joined - audio).max()))
    gold.finish()
    summary["seconds"] = round(time.time() - began, 1)
    print(json.dumps(summary, indent=1))
    print(f"wrote the CosyVoice 3 fixtures to {out}")


if __name__ == "__main__":
    main()
