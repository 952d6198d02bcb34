#!/usr/bin/env python3
"""Self-test of tools/neutts: makes the fixtures in a temporary directory (twice, to check they are
byte-identical) and checks the reference's invariants against them, including that the usual porting
bugs change the tokens. Usage: .venv/bin/python tools/neutts/test_reference.py  (about 40 s)."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
from tools.neutts import make_fixtures as mf  # noqa: E402
from tools.neutts import reference  # noqa: E402
from tools.common.goldens import tree_digest  # noqa: E402

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


class Fixture:
    def __init__(self, root):
        self.root = Path(root)
        self.repo, self.gold = self.root / "repo", self.root / "golden"
        self.lm = json.loads((self.gold / "lm.json").read_text())
        self.long = json.loads((self.gold / "long.json").read_text())
        self.tokens = json.loads((self.gold / "tokens.json").read_text())
        self.phonemes = json.loads((self.gold / "phonemes.json").read_text())
        self.index = json.loads((self.gold / "index.json").read_text())["arrays"]
        self.tok = reference.load_tokenizer(self.repo / "tokenizer.json")
        self.backbone = reference.Backbone(self.repo / "onnx" / "model.onnx")
        self.codecs = {n: reference.Codec(self.root / n / "model.onnx") for n in ("codec", "codec-short")}
        self.end = self.tok.token_to_id(reference.SPEECH_GENERATION_END)
        self.ref_codes = [int(c) for c in np.load(self.root / "voice" / "ref_codes.npy")]
        self.ref_phones = reference.phonemize((self.root / "voice" / "ref.txt").read_text())

    def array(self, name):
        meta = self.index[name]
        kind = {"f32": "<f4", "i32": "<i4", "i64": "<i8"}[meta["dtype"]]
        return np.fromfile(self.gold / name, kind).reshape(meta["shape"])

    def case(self, name):
        return next(c for c in self.lm["cases"] if c["name"] == name)

    def rerun(self, case, bugs=(), **kw):
        draws = None
        if case["mode"] == "sample":   # the golden draws, continued by the same generator if a bug runs longer
            draws, drawn = mf.draws_for(case["seed"])
        return self.backbone.generate(case["prompt_ids"], self.end, draws=draws, bugs=bugs, **kw)


@check
def layout_is_read_from_the_session(fx):
    b = fx.backbone
    assert (b.layers, b.kv_heads, b.head_dim) == (3, 2, 8) != (24, 3, 64)
    ins = [i.name for i in b.session.get_inputs()]
    assert ins == ["input_ids", "attention_mask", "position_ids"] + \
        [f"past_key_values.{i}.{k}" for i in range(3) for k in ("key", "value")], ins
    assert b.output_names == ["logits"] + [f"present.{i}.{k}" for i in range(3) for k in ("key", "value")]
    cfg = json.loads((fx.repo / "config.json").read_text())
    out = b.run([[1, 2, 3]], [[1, 1, 1]], [[0, 1, 2]], b.empty_past())
    assert out["logits"].shape == (1, 1, cfg["vocab_size"])   # the last position's only
    assert cfg["vocab_size"] == fx.tok.get_vocab_size() + mf.PADDING_ROWS
    assert out["present.0.key"].shape == (1, 2, 3, 8)
    assert (fx.repo / "onnx" / "model.onnx_data").stat().st_size > 0 and "lm_head.weight" not in \
        json.loads((fx.repo / "model.safetensors").read_bytes()[8:8 + int.from_bytes((fx.repo / "model.safetensors").read_bytes()[:8], "little")])


@check
def converted_graph_matches_a_numpy_llama(fx):
    """The converter's graph against an independent numpy forward of the same bf16 weights."""
    import ml_dtypes
    raw = (fx.repo / "model.safetensors").read_bytes()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    w = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        a, b = meta["data_offsets"]
        w[name] = np.frombuffer(raw[8 + n + a:8 + n + b], ml_dtypes.bfloat16).astype(np.float32).reshape(meta["shape"])
    ids = fx.case("short_greedy")["prompt_ids"][:60]
    want_all = mf.numpy_logits(w, np.array(ids))   # causal: row k-1 is the forward of the first k tokens
    # The graph gives the last position's logits: prompts of several lengths check several rows.
    lengths = (1, 7, 30, len(ids))
    want = want_all[[k - 1 for k in lengths]]
    got = np.concatenate([fx.backbone.run([ids[:k]], [[1] * k], [list(range(k))], fx.backbone.empty_past())["logits"][0]
                          for k in lengths])
    end = fx.end
    keep = np.arange(want.shape[1]) != end
    assert np.abs(want - got)[:, keep].max() < 2e-3, np.abs(want - got)[:, keep].max()
    # END's row carries a gain of 48000 on the text fraction, so its logit moves more (relative 1e-4)
    assert np.abs(want[:, end] - got[:, end]).max() < 1e-4 * np.abs(want[:, end]).max() + 1e-2


@check
def tokenizer_and_prompt(fx):
    t = fx.tok
    s0 = t.token_to_id("<|speech_0|>")
    assert t.token_to_id("<|speech_65535|>") == s0 + 65535 and t.token_to_id(reference.SPEECH_GENERATION_END) == s0 - 1
    assert fx.tokens["speech_0"] == s0 and fx.tokens["specials"]["<|begin_of_text|>"] == fx.tokens["base_vocab"]
    for c in fx.tokens["cases"]:
        assert t.encode(c["text"], add_special_tokens=False).ids == c["ids"]
        assert t.encode(c["text"]).ids == [fx.tokens["specials"]["<|begin_of_text|>"]] + c["ids"]
    assert reference.extract_codes("<|speech_12|>x<|speech_7|> plain <|speech_|> <|speech_70000|>") == [12, 7, 70000]
    for c in fx.lm["cases"]:
        phones = reference.phonemize(c["text"], c["language"])
        assert phones == c["phonemes"]
        ids = reference.prompt_ids(t, fx.ref_phones, phones, fx.ref_codes)
        assert ids == c["prompt_ids"] == reference.prompt_ids_torch_path(t, fx.ref_phones, phones, fx.ref_codes)
        assert ids[0] == fx.tokens["specials"]["<|begin_of_text|>"] and ids[-101] == t.token_to_id(reference.SPEECH_GENERATION_START)
        assert ids[-100:] == [s0 + c for c in fx.ref_codes]
    for c in fx.phonemes["cases"]:
        assert reference.phonemize(c["text"], c["language"]) == c["phonemes"]
    fr = next(c for c in fx.phonemes["cases"] if c["language"] == "fr-fr")
    assert "-" not in fr["phonemes"] and "-" in fr["text"]


@check
def goldens_reproduce(fx):
    s0 = fx.tokens["speech_0"]
    for c in fx.lm["cases"]:
        draws = iter(c["draws"]).__next__ if c["mode"] == "sample" else None
        run = fx.backbone.generate(c["prompt_ids"], fx.end, draws=draws)
        assert run["generated"] == c["generated"] and run["stopped"], c["name"]
        if c["mode"] == "sample":
            assert c["draws"] == [reference.SplitMix64(c["seed"]).uniform()] + c["draws"][1:]
        assert c["generated_count"] >= reference.MIN_NEW_TOKENS + 1
        text = reference.generated_text(fx.tok, run["generated"])
        assert reference.extract_codes(text) == c["codes"] == [t - s0 for t in c["generated"] if s0 <= t < s0 + 65536]
        assert list(fx.array(c["codes_file"])) == c["codes"]
        for cname, codec in fx.codecs.items():
            if "audio" not in c:
                continue
            wav = codec.decode(c["codes"])
            assert wav.size == (len(c["codes"]) - (1 if cname == "codec-short" else 0)) * 480
            assert np.array_equal(wav, fx.array(c["audio"][cname]))
    assert fx.case("tiny_sampled")["generated_count"] == reference.MIN_NEW_TOKENS + 1   # END as soon as allowed
    assert any(c["non_speech"] for c in fx.lm["cases"]), "no case exercises the regex"
    u = fx.long["unchunked"]
    assert not u["stopped"] and u["prompt_length"] + u["generated_count"] == reference.MAX_CONTEXT
    assert len(fx.long["chunks"]) == 2 and all(p["stopped"] for p in fx.long["chunks"])
    assert reference.plan_chunks(fx.tok, fx.long["text"], fx.ref_phones, fx.ref_codes) == fx.long["plan"]["chunks"]


@check
def streaming(fx):
    for name in mf.AUDIO_CASES:
        c = fx.case(name)
        items = [reference.token_text(fx.tok, t) for t in c["generated"] if t != fx.end]
        for key, s in c["stream"].items():
            codec = fx.codecs[s["codec"]]
            pieces, records = reference.stream(codec, fx.ref_codes, items, frames_per_chunk=s["frames_per_chunk"])
            joined = np.concatenate(pieces)
            assert np.array_equal(joined, fx.array(s["file"])), key
            assert [p.size for p in pieces] == s["pieces"] and records == s["chunks"]
            stride = s["frames_per_chunk"] * 480
            assert all(p == stride for p in s["pieces"][:-1])
            assert all(r["frame_samples"] == stride + 960 for r in records if not r["final"])
            # the joined stream is the overlap-add of all frames; the first chunk looks back into the reference
            assert records[0]["token_start"] == len(fx.ref_codes) - 51
            # without look-back the audio differs (the toy codec has +-2 frames of context)
            alt = np.concatenate(reference.stream(codec, fx.ref_codes, items, frames_per_chunk=s["frames_per_chunk"], lookback=0)[0])
            assert alt.size != joined.size or not np.array_equal(alt, joined)


@check
def porting_bugs_change_the_tokens(fx):
    for name in ("short_greedy", "short_sampled"):
        c = fx.case(name)
        for bug in ("kv_layers_rotated", "kv_key_value_swapped", "mask_first_zero", "position_plus_one", "position_stuck",
                    "mask_short", "mask_long"):
            try:
                run = fx.rerun(c, bugs={bug})
            except Exception:   # ORT refuses a mask of the wrong length: also caught
                continue
            assert run["generated"] != c["generated"], (name, bug)
    tiny = fx.case("tiny_sampled")
    assert len(fx.rerun(tiny, bugs={"no_min_new_tokens"})["generated"]) < tiny["generated_count"]
    assert any(fx.rerun(fx.case(n), bugs={"end_mask_after_topk"})["generated"] != fx.case(n)["generated"]
               for n in ("tiny_sampled", "short_sampled"))
    for name in ("short_sampled", "medium_sampled"):
        c = fx.case(name)
        assert fx.rerun(c, bugs={"sample_id_order"})["generated"] != c["generated"], name
    # stopping at the wrong token: at the config's <|end_of_text|> (never written here: runs on), or at
    # the first non-speech token
    c = next(c for c in fx.lm["cases"] if c["non_speech"])
    s0 = fx.tokens["speech_0"]
    non_speech = [i for i in range(fx.tok.get_vocab_size() + mf.PADDING_ROWS) if not s0 <= i < s0 + 65536]
    assert fx.rerun(c, stop_ids=non_speech)["generated"] != c["generated"]
    # codes taken as id - speech_0 for every token instead of the regex
    assert [t - s0 for t in c["generated"][:-1]] != c["codes"]
    # the codec's output is not called "audio": use index 0
    sess = fx.codecs["codec"].session
    assert [o.name for o in sess.get_outputs()] == [mf.CODEC_OUTPUT]
    try:
        sess.run(["audio"], {"codes": np.zeros((1, 1, 4), np.int32)})
        raise AssertionError("the codec has an output called audio")
    except Exception as e:   # noqa: BLE001
        assert "audio" in str(e)
    # int64 codes are refused (the input is int32)
    try:
        sess.run(None, {"codes": np.zeros((1, 1, 4), np.int64)})
        raise AssertionError("int64 codes accepted")
    except Exception as e:   # noqa: BLE001
        assert "int32" in str(e) or "tensor(int" in str(e), e


@check
def cache_rows_pass_through(fx):
    b = fx.backbone
    ids = fx.case("short_greedy")["prompt_ids"][:20]
    first = b.run([ids], [[1] * 20], [list(range(20))], b.empty_past())
    step = b.run([[ids[-1]]], [[1] * 21], [[20]], {n: first[b.present_for[n]] for n in b.past_names})
    for n in b.past_names:
        assert np.array_equal(step[b.present_for[n]][:, :, :20], first[b.present_for[n]]), n
    whole = b.run([ids + [ids[-1]]], [[1] * 21], [list(range(21))], b.empty_past())
    assert np.abs(whole["logits"][0, -1] - step["logits"][0, -1]).max() < 1e-3


def main():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a", Path(tmp) / "b"
        for out in (a, b):
            subprocess.run([sys.executable, str(HERE / "make_fixtures.py"), str(out)], check=True, stdout=subprocess.DEVNULL)
        assert tree_digest(a) == tree_digest(b), "two runs of make_fixtures.py differ"
        fx = Fixture(a)
        failed = 0
        for fn in CHECKS:
            try:
                fn(fx)
                print(f"ok   {fn.__name__}")
            except Exception as e:   # noqa: BLE001
                failed += 1
                print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
        print(f"{len(CHECKS) - failed}/{len(CHECKS)} checks passed")
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
