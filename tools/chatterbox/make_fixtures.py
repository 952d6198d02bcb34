#!/usr/bin/env python3
"""Synthetic Chatterbox Turbo repository and goldens (issue #21). Usage: make_fixtures.py OUTDIR

Writes OUTDIR/repo (ResembleAI/chatterbox-turbo-ONNX's layout: onnx/*.onnx with .onnx_data sidecars
for the fp32 and q4f16 variants, a toy GPT-2 tokenizer.json, small config files) and OUTDIR/golden
(reference.py over those graphs). Layout, graph semantics, golden formats and tolerances:
tools/chatterbox/README.md.
"""
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import onnx

from tools.common.wav import write_pcm16
from tools.chatterbox import graphs
from tools.common.goldens import Golden
from tools.common.splitmix import draws_for
from tools.chatterbox import reference
from tools.chatterbox import rename_input

VARIANTS = {"fp32": "", "q4f16": "_q4f16"}
ENDOFTEXT = ("<|endoftext|>", 50256)
# The paralinguistic tags of gradio_tts_turbo_app.py, as added tokens after <|endoftext|>. Their real
# ids (and the other 10 of the 19 added tokens that make the vocabulary 50276) are not known here.
TAGS = ["[clear throat]", "[sigh]", "[shush]", "[cough]", "[groan]", "[sniff]", "[gasp]", "[chuckle]", "[laugh]"]
CORPUS = """Hello there, this is Warble speaking from a small computer on the desk.
The quick brown fox jumps over the lazy dog, and then it runs away into the woods.
Oh, that's hilarious! Um anyway, we do have a new model in store, would you like the prices?
Speech synthesis turns written text into spoken audio, one sentence at a time.
A voice can be cloned from a short recording of somebody speaking for ten seconds.
Good morning! How are you doing today? I hope that everything is going well for you.
Please read the following instructions carefully before you begin the test.
It was the best of times, it was the worst of times; numbers like 12 and 345 are read aloud.
"""
TEXTS = {  # name: raw text (punc_norm runs first)
    "short": "hello there… this is Warble speaking: a small test",
    "long": "Good morning!  How are you doing today? I hope that everything — really everything — is going well",
    "tagged": "Oh, that’s hilarious [chuckle] um anyway, we do have a new model in store",
    "forever": "keep talking ~ and never stop",
}
CASES = [  # LM cases: (name, text, mode, seed)
    ("short_greedy", "short", "greedy", None),
    ("long_greedy", "long", "greedy", None),
    ("short_sampled", "short", "sample", 7),
    ("tagged_sampled", "tagged", "sample", 2025),
    ("forever_greedy", "forever", "greedy", None),
]
WAVEFORM_CASES = ["long_greedy", "tagged_sampled", "forever_greedy"]
STREAM_CASES = ["long_greedy", "forever_greedy"]  # 75 tokens: chunks of 25 and 50; 1,024: up to the cap
PUNC_CASES = [
    "", "   ", "hello world", "  hello   world  ", "Wait… what?", "wait … what", "Note: this works",
    "A — B – C", "“Quoted” and ‘single’ quotes", "ends with comma,", "ends with dash -", "ends with space   ",
    "ß is lower", "émigré", "tab\tand\nnewline", "No change!", "question?", "x : y , z", "…", "Already fine.",
]
TOKEN_CASES = [
    "Hello there, this is Warble speaking.", "Oh, that's hilarious! [chuckle] Um anyway.",
    "[laugh][sigh] Two tags.", "Numbers 12, 345 and 6789.", "Unseen words: zymurgy, quixotic.",
    "émigré café, naïve 🙂.", "Tabs\tand  spaces.", "<|endoftext|> is special.", "keep talking ~ and never stop.",
]
CLIP_SECONDS, SHORT_CLIP_SECONDS, LONG_CLIP_SECONDS = 6.0, 2.0, 25.0


# -------------------------------------------------------------------------------------------------
# Tokenizer

def make_tokenizer(repo):
    """A GPT-2-style byte-level BPE learned from CORPUS (256 byte tokens + merges), <|endoftext|>
    at 50256 and the tags at 50257.. as added tokens; written as repo/tokenizer.json."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=256 + 300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False, special_tokens=[])
    tok.train_from_iterator([CORPUS] * 3, trainer)
    spec = json.loads(tok.to_str())
    spec["model"]["vocab"][ENDOFTEXT[0]] = ENDOFTEXT[1]
    added = [dict(id=ENDOFTEXT[1], content=ENDOFTEXT[0], single_word=False, lstrip=False, rstrip=False,
                  normalized=True, special=True)]
    for i, tag in enumerate(TAGS):
        # also in the model's vocabulary: the tokenizers library renumbers an added token that the
        # model does not hold when the ids are not contiguous with it
        spec["model"]["vocab"][tag] = ENDOFTEXT[1] + 1 + i
        added.append(dict(id=ENDOFTEXT[1] + 1 + i, content=tag, single_word=False, lstrip=False, rstrip=False,
                          normalized=False, special=False))
    spec["added_tokens"] = added
    text = json.dumps(spec, ensure_ascii=False, indent=1) + "\n"
    (repo / "tokenizer.json").write_text(text, encoding="utf-8")
    (repo / "tokenizer_config.json").write_text(json.dumps({
        "add_bos_token": False, "add_prefix_space": False, "bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>",
        "unk_token": "<|endoftext|>", "clean_up_tokenization_spaces": False, "model_max_length": 1024,
        "tokenizer_class": "GPT2Tokenizer",
        "added_tokens_decoder": {str(a["id"]): {k: a[k] for k in ("content", "lstrip", "normalized", "rstrip", "single_word", "special")}
                                 for a in added}}, indent=1) + "\n")
    tok = reference.load_tokenizer(repo / "tokenizer.json")
    assert all(tok.token_to_id(a["content"]) == a["id"] for a in added)
    return tok


def write_template_tokenizer(repo, gold_dir):
    """The same tokenizer with a TemplateProcessing post-processor (BOS and EOS around the text), as a
    re-exported tokenizer.json may have it: the model card calls the tokenizer with its defaults, so the
    text ids are whatever the post-processor makes (golden: `tokenizers`' own encode)."""
    from tokenizers import Tokenizer
    spec = json.loads((repo / "tokenizer.json").read_text(encoding="utf-8"))
    spec["post_processor"] = {"type": "TemplateProcessing",
                              "single": [{"SpecialToken": {"id": ENDOFTEXT[0], "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                                         {"SpecialToken": {"id": ENDOFTEXT[0], "type_id": 0}}],
                              "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                              "special_tokens": {ENDOFTEXT[0]: {"id": ENDOFTEXT[0], "ids": [ENDOFTEXT[1]], "tokens": [ENDOFTEXT[0]]}}}
    text = json.dumps(spec, ensure_ascii=False, indent=1) + "\n"
    (gold_dir / "tokenizer_template.json").write_text(text, encoding="utf-8")
    tok = Tokenizer.from_str(text)
    plain = reference.load_tokenizer(repo / "tokenizer.json")
    cases = [{"text": t, "ids": reference.encode(tok, reference.punc_norm(t)),
              "plain_ids": reference.encode(plain, reference.punc_norm(t))} for t in TOKEN_CASES]
    assert all(c["ids"] == [ENDOFTEXT[1]] + c["plain_ids"] + [ENDOFTEXT[1]] for c in cases)
    return cases


def write_repo(repo, marker_id):
    for path, model in graphs.all_models(marker_id).items():
        onnx.checker.check_model(model, full_check=True)
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        onnx.save_model(model, str(target), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=target.name + "_data", size_threshold=1024, convert_attribute=False)
    (repo / "preprocessor_config.json").write_text(json.dumps({"sampling_rate": graphs.SAMPLE_RATE}, indent=1) + "\n")
    (repo / "README.md").write_text(
        "---\nlicense: mit\n---\n# chatterbox-turbo-ONNX (synthetic fixture)\n\n"
        "Warble's test stand-in for ResembleAI/chatterbox-turbo-ONNX: the same file names, tensor names, dtypes\n"
        "and shapes, but tiny random graphs (3 layers, 4 heads, head_dim 16, width 64). It does not speak.\n"
        "Made by tools/chatterbox/make_fixtures.py; see tools/chatterbox/README.md.\n")
    (repo / ".gitattributes").write_text("*.onnx filter=lfs diff=lfs merge=lfs -text\n"
                                         "*.onnx_data filter=lfs diff=lfs merge=lfs -text\n")


def write_renamed_encoder(repo, gold_dir):
    """`warble models check`'s negative case: the fp32 speech encoder with its input renamed (audio_values ->
    input_values, as another exporter may name it), still reading the repository's .onnx_data beside it."""
    rename_input.rename_input(repo / "onnx/speech_encoder.onnx", gold_dir / "renamed_speech_encoder.onnx")


# -------------------------------------------------------------------------------------------------
# Reference clip

def voice_signal(seconds, rate=graphs.SAMPLE_RATE):
    """A voice-like signal: harmonics of a gliding f0 with a syllable envelope and short pauses."""
    t = np.arange(int(round(seconds * rate))) / rate
    phase = 2 * np.pi * (125 * t - 25 / (2 * np.pi * 0.6) * np.cos(2 * np.pi * 0.6 * t))
    envelope = np.clip(np.sin(2 * np.pi * 2.3 * t) * 1.4 + 0.2, 0, 1) ** 1.5
    x = np.zeros_like(t)
    for k in range(1, 24):
        formant = np.exp(-((k * 125 - 500 - 300 * np.sin(2 * np.pi * 0.9 * t)) / 600) ** 2) + 0.3 / k
        x += formant * np.sin(k * phase + 0.7 * k)
    x = x * envelope
    return (0.25 * x / np.abs(x).max()).astype(np.float64)


def write_wav(path, samples, rate=graphs.SAMPLE_RATE):
    pcm = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2")
    write_pcm16(path, pcm, rate)
    return (pcm.astype(np.float32) / np.float32(32768)).astype(np.float32)   # what a reader gives back


# -------------------------------------------------------------------------------------------------
# Goldens

def main():
    began = time.time()
    out = Path(sys.argv[1])
    repo, gold_dir = out / "repo", out / "golden"
    shutil.rmtree(repo, ignore_errors=True)   # onnx appends to an existing .onnx_data
    shutil.rmtree(gold_dir, ignore_errors=True)
    repo.mkdir(parents=True)
    tok = make_tokenizer(repo)
    marker_id = tok.token_to_id("~")
    write_repo(repo, marker_id)
    gold = Golden(gold_dir)
    write_renamed_encoder(repo, gold_dir)

    # Text.
    gold.json("text.json", {
        "punc_norm": [{"text": t, "cleaned": reference.punc_norm(t)} for t in PUNC_CASES],
        "tokens": [{"text": t, "ids": reference.encode(tok, t), "tokens": tok.encode(t).tokens,
                    "decoded": tok.decode(reference.encode(tok, t), skip_special_tokens=False)} for t in TOKEN_CASES],
        "marker": {"token": "~", "id": marker_id},
        "template": write_template_tokenizer(repo, gold_dir),
    })

    # Voice.
    clip = write_wav(gold_dir / "voice_24k_mono.wav", voice_signal(CLIP_SECONDS))
    write_wav(gold_dir / "voice_short_24k_mono.wav", voice_signal(SHORT_CLIP_SECONDS))
    long_clip = write_wav(gold_dir / "voice_long_24k_mono.wav", voice_signal(LONG_CLIP_SECONDS))
    assert reference.clip_duration_ok(clip) and not reference.clip_duration_ok(np.zeros(int(SHORT_CLIP_SECONDS * 24000)))
    normalised, loudness, gain = reference.normalise_loudness(clip)
    after = reference.normalise_loudness(normalised)[1]
    assert np.array_equal(normalised, clip * np.float32(gain))   # the README's formula
    voice_meta = {"wav": "voice_24k_mono.wav", "short_wav": "voice_short_24k_mono.wav", "samples": int(clip.size),
                  "seconds": clip.size / 24000, "short_seconds": SHORT_CLIP_SECONDS, "long_wav": "voice_long_24k_mono.wav", "long_seconds": LONG_CLIP_SECONDS, "loudness_lufs": loudness,
                  "gain": gain, "gain_f32": float(np.float32(gain)), "loudness_after_lufs": after, "variants": {}}

    summary = {}
    for variant, suffix in VARIANTS.items():
        model = reference.Model(repo, suffix)
        assert (model.layers, model.heads, model.head_dim, model.width) == (graphs.LAYERS, graphs.HEADS, graphs.HEAD_DIM, graphs.WIDTH)
        cond = model.encode_voice(normalised)
        names = {}
        for key, value in cond.items():
            names[key] = gold.array(f"voice_{variant}_{key}.{'i64' if key == 'audio_tokens' else 'f32'}", value,
                                    "i64" if key == "audio_tokens" else "f32")
        # A 25 s clip, cut as the authors cut it (15 s for the language model, 10 s for the decoder).
        long_cond = model.encode_voice_cut(reference.normalise_loudness(long_clip)[0])
        long_names = {key: gold.array(f"voice_long_{variant}_{key}.{'i64' if key == 'audio_tokens' else 'f32'}", value,
                                      "i64" if key == "audio_tokens" else "f32") for key, value in long_cond.items()}
        whole = model.encode_voice(reference.normalise_loudness(long_clip)[0])
        # The graph itself stops at 15 s and 10 s for its stand-ins, but pools its speaker embedding over
        # 15 s: fed whole, the clip gives another embedding than the authors' 10-s decoder cut.
        assert np.abs(whole["speaker_embeddings"] - long_cond["speaker_embeddings"]).max() > 1e-3, "the cut must show"
        unnormalised = model.encode_voice(clip)
        voice_meta["variants"][variant] = dict(files=names, long_files=long_names, audio_tokens_equal_unnormalised=bool(
            np.array_equal(unnormalised["audio_tokens"], cond["audio_tokens"])),
            speaker_features_shift_unnormalised=float(np.mean(unnormalised["speaker_features"] - cond["speaker_features"])))
        prompt = [int(t) for t in cond["audio_tokens"][0]]
        cases = []
        for name, text_name, mode, seed in CASES:
            raw = TEXTS[text_name]
            cleaned = reference.punc_norm(raw)
            ids = reference.encode(tok, cleaned)
            drawn = []
            draws = None
            if mode == "sample":
                draws, drawn = draws_for(seed)
            run = model.generate(cond["audio_features"], ids, draws=draws)
            steps = run["steps"]
            case = dict(name=name, text=raw, cleaned=cleaned, text_ids=ids, mode=mode, seed=seed,
                        prefill_length=run["prefill_length"], conditioning_rows=int(cond["audio_features"].shape[1]),
                        generated=run["generated"], stopped=run["stopped"], speech_tokens=run["speech"],
                        steps=len(steps))
            if mode == "greedy":
                case["min_margin"] = min(s["margin"] for s in steps)
            else:
                case["draws"] = drawn
                case["top_k_kept"] = [s["top_k_kept"] for s in steps]
                case["nucleus"] = [s["nucleus"] for s in steps]
                case["min_boundary_distance"] = min(s["boundary_distance"] for s in steps)
            if name in WAVEFORM_CASES:
                wav = model.decode(prompt, run["speech"], cond["speaker_embeddings"], cond["speaker_features"])
                assert wav.size == (len(run["speech"]) + 3) * graphs.TOKEN_SAMPLES
                case["waveform"] = gold.array(f"wave_{variant}_{name}.f32", wav)
            if name in STREAM_CASES:
                joined, chunks = reference.stream(model, prompt, run["speech"], cond["speaker_embeddings"], cond["speaker_features"])
                wav = np.fromfile(gold_dir / case["waveform"], "<f4")
                assert joined.size == wav.size
                windows = reference.crossfade_windows(len(run["speech"]))
                outside = np.ones(wav.size, bool)
                for a, b in windows:
                    outside[a:b] = False
                case["stream"] = dict(file=gold.array(f"stream_{variant}_{name}.f32", joined), chunks=chunks,
                                      first=reference.CHUNK, cap=reference.CHUNK_CAP, context=reference.CONTEXT,
                                      crossfade=reference.CROSSFADE,
                                      crossfade_windows=windows,
                                      max_abs_diff_outside_crossfades=float(np.abs(joined - wav)[outside].max()))
            cases.append(case)
            summary[f"{variant}/{name}"] = dict(text_ids=len(ids), speech=len(run["speech"]), stopped=run["stopped"],
                                                margin=case.get("min_margin"), boundary=case.get("min_boundary_distance"),
                                                nucleus=(min(case["nucleus"]), max(case["nucleus"])) if mode == "sample" else None,
                                                topk=(min(case["top_k_kept"]), max(case["top_k_kept"])) if mode == "sample" else None)
        gold.json(f"lm_{variant}.json", {"variant": variant, "suffix": suffix, "prompt_tokens": prompt,
                                          "layout": dict(layers=model.layers, heads=model.heads, head_dim=model.head_dim,
                                                         width=model.width, kv_dtype=str(np.dtype(model.kv_types["past_key_values.0.key"])),
                                                         logits_dtype=str(np.dtype(model.logits_type))),
                                          "cases": cases})
    gold.json("voice.json", voice_meta)
    agree = {}
    lm = {v: json.loads((gold_dir / f"lm_{v}.json").read_text()) for v in VARIANTS}
    for a, b in zip(lm["fp32"]["cases"], lm["q4f16"]["cases"]):
        agree[a["name"]] = a["generated"] == b["generated"]
    gold.json("variants.json", {"same_tokens_fp32_q4f16": agree,
                                "same_prompt_tokens": lm["fp32"]["prompt_tokens"] == lm["q4f16"]["prompt_tokens"]})
    gold.finish()
    summary["agree"] = agree
    summary["seconds"] = round(time.time() - began, 1)
    print(json.dumps(summary, indent=1))
    print(f"wrote the Chatterbox fixtures to {out}")


if __name__ == "__main__":
    main()
