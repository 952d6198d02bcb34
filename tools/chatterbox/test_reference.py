#!/usr/bin/env python3
"""Self-test of tools/chatterbox: makes the fixtures in a temporary directory (twice, to check they are
byte-identical) and checks the reference's invariants against them. Usage: .venv/bin/python
tools/chatterbox/test_reference.py  (about 15 s)."""
import json
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
from tools.chatterbox import graphs  # noqa: E402
from tools.chatterbox import reference  # noqa: E402
from tools.common.goldens import tree_digest  # noqa: E402

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def read_wav(path):
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 24000)
        return (np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32) / np.float32(32768)).astype(np.float32)


class Fixture:
    def __init__(self, root):
        self.root = Path(root)
        self.repo, self.gold = self.root / "repo", self.root / "golden"
        self.lm = {v: json.loads((self.gold / f"lm_{v}.json").read_text()) for v in ("fp32", "q4f16")}
        self.voice = json.loads((self.gold / "voice.json").read_text())
        self.index = json.loads((self.gold / "index.json").read_text())["arrays"]

    def array(self, name):
        meta = self.index[name]
        kind = {"f32": "<f4", "i64": "<i8"}[meta["dtype"]]
        return np.fromfile(self.gold / name, kind).reshape(meta["shape"])

    def case(self, variant, name):
        return next(c for c in self.lm[variant]["cases"] if c["name"] == name)

    def conditioning(self, variant):
        files = self.voice["variants"][variant]["files"]
        return {k: self.array(v) for k, v in files.items()}


@check
def layout_is_read_from_the_session(fx):
    for suffix, kv in (("", np.float32), ("_q4f16", np.float16)):
        m = reference.Model(fx.repo, suffix)
        assert (m.layers, m.heads, m.head_dim, m.width) == (3, 4, 16, 64), (m.layers, m.heads)
        assert (m.layers, m.heads, m.head_dim, m.width) != (24, 16, 64, 1024)
        assert all(t == kv for t in m.kv_types.values())
        assert m.logits_type == kv
        outs = [o.name for o in m.session("language_model").get_outputs()]
        assert outs == ["logits"] + [f"present.{i}.{k}" for i in range(3) for k in ("key", "value")], outs
        ins = [i.name for i in m.session("language_model").get_inputs()]
        assert ins == ["inputs_embeds", "attention_mask", "position_ids"] + \
            [f"past_key_values.{i}.{k}" for i in range(3) for k in ("key", "value")], ins
        for stem in ("speech_encoder", "embed_tokens", "language_model", "conditional_decoder"):
            assert (fx.repo / "onnx" / f"{stem}{suffix}.onnx_data").stat().st_size > 0


@check
def goldens_reproduce(fx):
    """Re-running the reference on the golden inputs gives the golden outputs."""
    for variant, suffix in (("fp32", ""), ("q4f16", "_q4f16")):
        m = reference.Model(fx.repo, suffix)
        clip = read_wav(fx.gold / fx.voice["wav"])
        norm, loud, gain = reference.normalise_loudness(clip)
        assert abs(loud - fx.voice["loudness_lufs"]) < 1e-9 and np.array_equal(norm, clip * np.float32(fx.voice["gain_f32"]))
        assert abs(reference.normalise_loudness(norm)[1] - reference.TARGET_LUFS) < 1e-3
        cond = m.encode_voice(norm)
        gold = fx.conditioning(variant)
        for k in cond:
            assert np.array_equal(cond[k], gold[k]), k
        for c in fx.lm[variant]["cases"]:
            if c["name"] == "forever_greedy":
                continue   # checked below
            draws = iter(c["draws"]).__next__ if c["mode"] == "sample" else None
            run = m.generate(cond["audio_features"], c["text_ids"], draws=draws)
            assert run["generated"] == c["generated"], c["name"]
            assert run["stopped"] and len(run["speech"]) == graphs.STOP_RATIO * len(c["text_ids"]), c["name"]


@check
def text_cleanup(fx):
    pn = reference.punc_norm
    assert pn("") == reference.EMPTY_TEXT
    assert pn("hello   world") == "Hello world."
    assert pn("  hello") == "hello."                 # capitalised before spaces are collapsed
    assert pn("Wait… what") == "Wait,  what."             # two spaces: collapsing came first
    assert pn("a … b") == "A,  b."                  # "…" -> ", " then " ," -> ","
    assert pn("Note: fine!") == "Note, fine!"
    assert pn("“Hi” ‘there’ — ok –") == "\"Hi\" 'there' - ok -"
    assert pn("ends,") == "Ends," and pn("x -") == "X -"
    text = json.loads((fx.gold / "text.json").read_text())
    for c in text["punc_norm"]:
        assert pn(c["text"]) == c["cleaned"]
    tok = reference.load_tokenizer(fx.repo / "tokenizer.json")
    assert tok.token_to_id("<|endoftext|>") == 50256 and tok.token_to_id("[chuckle]") == 50264
    for c in text["tokens"]:
        assert reference.encode(tok, c["text"]) == c["ids"]
    assert text["marker"]["id"] in reference.encode(tok, reference.punc_norm("keep talking ~ and never stop"))


@check
def porting_bugs_change_the_tokens(fx):
    m = reference.Model(fx.repo, "")
    cond = fx.conditioning("fp32")
    case = fx.case("fp32", "short_greedy")
    for bug in ("kv_layers_rotated", "kv_key_value_swapped", "mask_short", "mask_long", "position_stuck",
                "feed_start", "no_penalty"):
        run = m.generate(cond["audio_features"], case["text_ids"], bugs={bug}, max_new_tokens=80)
        assert run["generated"] != case["generated"], bug
    # The same bugs in the f16-cache variant.
    m16 = reference.Model(fx.repo, "_q4f16")
    c16 = fx.case("q4f16", "short_greedy")
    for bug in ("kv_layers_rotated", "kv_key_value_swapped", "mask_short", "position_stuck"):
        run = m16.generate(fx.conditioning("q4f16")["audio_features"], c16["text_ids"], bugs={bug}, max_new_tokens=80)
        assert run["generated"] != c16["generated"], bug
    # The sampler: the authors' order (penalty after top-p) differs from penalty-first somewhere.
    sampled = fx.case("fp32", "short_sampled")
    run = m.generate(cond["audio_features"], sampled["text_ids"], draws=iter(sampled["draws"]).__next__, bugs={"no_penalty"})
    assert run["generated"] != sampled["generated"]


@check
def cache_rows_pass_through_unchanged(fx):
    """A step returns the past rows exactly as given, followed by the new row."""
    m = reference.Model(fx.repo, "")
    cond = fx.conditioning("fp32")
    ids = fx.case("fp32", "short_greedy")["text_ids"]
    emb = np.concatenate([cond["audio_features"], m.embed(ids)], axis=1)
    n = emb.shape[1]
    past = {k: np.zeros((1, m.heads, 0, m.head_dim), np.float32) for k in m.past_names}
    first = m.run("language_model", inputs_embeds=emb, attention_mask=np.ones((1, n), np.int64),
                  position_ids=np.arange(n)[None], **past)
    step = m.run("language_model", inputs_embeds=m.embed([435]), attention_mask=np.ones((1, n + 1), np.int64),
                 position_ids=np.array([[n]]), **{k: first[m.present_for[k]] for k in m.past_names})
    # the toy counts prompt rows by "S > 1", so feeding 435 inside the prefill is a different prompt:
    # compare only the cache rows and their bookkeeping instead
    for k in m.past_names:
        assert np.array_equal(step[m.present_for[k]][:, :, :n], first[m.present_for[k]])
    assert step["logits"].shape == (1, 1, graphs.VOCAB)


@check
def streaming_equals_one_shot_away_from_crossfades(fx):
    for variant, suffix, name in [(v, s, n) for v, s in (("fp32", ""), ("q4f16", "_q4f16"))
                                  for n in ("long_greedy", "forever_greedy")]:
        c = fx.case(variant, name)
        oneshot = fx.array(c["waveform"])
        streamed = fx.array(c["stream"]["file"])
        assert streamed.size == oneshot.size == (len(c["speech_tokens"]) + 3) * 960
        fade_out, fade_in = reference.crossfade_curves()
        inside = np.zeros(oneshot.size, bool)
        for a, b in c["stream"]["crossfade_windows"]:
            inside[a:b] = True
            expected = (oneshot[a:b].astype(np.float64) * (fade_out + fade_in)).astype(np.float32)
            assert np.abs(streamed[a:b] - expected).max() < 1e-6
        assert np.array_equal(streamed[~inside], oneshot[~inside])
        new_tokens = [ch["end_token"] - ch["first_token"] for ch in c["stream"]["chunks"]]
        if name == "long_greedy":   # 75 tokens: 25 and 50, then a final chunk of silence only
            assert new_tokens == [25, 50, 0]
            assert [ch["emitted"] for ch in c["stream"]["chunks"]] == [23760, 48000, 3120]
            assert c["stream"]["crossfade_windows"] == [[23760, 24000], [71760, 72000]]
        else:                       # 1,024 tokens: doubling to the cap of 200, the final chunk holds the 49 left
            assert new_tokens == [25, 50, 100, 200, 200, 200, 200, 49]
            assert [ch["emitted"] for ch in c["stream"]["chunks"]] == ([25 * 960 - 240] + [n * 960 for n in new_tokens[1:-1]]
                                                                        + [(49 + 3) * 960 + 240])
        assert sum(ch["emitted"] for ch in c["stream"]["chunks"]) == oneshot.size
        assert np.all(oneshot[:480] == 0)   # trim_fade's zeros
        # Without left context the chunk starts differ.
        m = reference.Model(fx.repo, suffix)
        cond = fx.conditioning(variant)
        joined, _ = reference.stream(m, fx.lm[variant]["prompt_tokens"], c["speech_tokens"], cond["speaker_embeddings"],
                                     cond["speaker_features"], context=0, crossfade=0)
        assert np.abs(joined - oneshot).max() > 1e-2
    # The plan: first == cap gives the fixed chunks of the rule before (25 each); short streams are one final chunk.
    assert reference.chunk_plan(75, 25, 25) == [(0, 25, False), (25, 50, False), (50, 75, False), (75, 75, True)]
    assert reference.chunk_plan(24) == [(0, 24, True)]
    assert reference.chunk_plan(250) == [(0, 25, False), (25, 75, False), (75, 175, False), (175, 250, True)]


@check
def full_length_run(fx):
    for variant, suffix in (("fp32", ""), ("q4f16", "_q4f16")):
        c = fx.case(variant, "forever_greedy")
        assert not c["stopped"] and len(c["generated"]) == len(c["speech_tokens"]) == 1024 and c["steps"] == 1024
    m = reference.Model(fx.repo, "")
    run = m.generate(fx.conditioning("fp32")["audio_features"], fx.case("fp32", "forever_greedy")["text_ids"])
    assert run["generated"] == fx.case("fp32", "forever_greedy")["generated"]


@check
def variants_as_documented(fx):
    v = json.loads((fx.gold / "variants.json").read_text())["same_tokens_fp32_q4f16"]
    assert v == {"short_greedy": True, "long_greedy": True, "short_sampled": False, "tagged_sampled": False,
                 "forever_greedy": False}, v
    a, b = fx.array("wave_fp32_long_greedy.f32"), fx.array("wave_q4f16_long_greedy.f32")
    assert np.abs(a - b).max() < 1e-2


@check
def loudness_matters_for_audio_not_tokens(fx):
    for variant in ("fp32", "q4f16"):
        meta = fx.voice["variants"][variant]
        assert meta["audio_tokens_equal_unnormalised"] and abs(meta["speaker_features_shift_unnormalised"]) > 0.1


def main():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a", Path(tmp) / "b"
        for out in (a, b):
            subprocess.run([sys.executable, str(HERE / "make_fixtures.py"), str(out)], check=True, stdout=subprocess.DEVNULL)
        assert tree_digest(a) == tree_digest(b), "two runs differ"
        fx = Fixture(a)
        for fn in CHECKS:
            fn(fx)
            print(f"ok  {fn.__name__}")
    print(f"{len(CHECKS)} checks passed")


if __name__ == "__main__":
    main()
