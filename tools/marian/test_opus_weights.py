#!/usr/bin/env python3
"""Checks of convert_opus.py's readers and refusals that need no PyTorch (scripts/test.sh runs it):
a pytorch_model.bin whose pickle asks for anything but tensors is refused (nothing runs); a legacy
or damaged file and a bad safetensors header are clear errors; unsupported configurations are
refused naming the key; bf16 reads as its f32 values.

    tools/marian/test_opus_weights.py
"""
import json
import pickle
import struct
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from tools.marian import convert_opus
from tools.marian.opus_weights import WeightsError, read_pytorch_bin, read_safetensors


class Evil:
    def __reduce__(self):
        return (print, ("this must never run",))


def expect_error(kind, call, words):
    try:
        call()
    except kind as e:
        assert all(w in str(e) for w in words), f"{e!r} lacks {words}"
        return
    raise AssertionError(f"{call} did not raise {kind.__name__}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        evil = tmp / "pytorch_model.bin"
        with zipfile.ZipFile(evil, "w") as z:
            z.writestr("archive/data.pkl", pickle.dumps({"x": Evil()}, protocol=2))
        expect_error(WeightsError, lambda: read_pytorch_bin(evil), ["print", "refuses"])
        legacy = tmp / "legacy.bin"
        legacy.write_bytes(pickle.dumps({"x": 1}))
        expect_error(WeightsError, lambda: read_pytorch_bin(legacy), ["legacy"])
        bad = tmp / "model.safetensors"
        bad.write_bytes(struct.pack("<Q", 1 << 40) + b"{}")
        expect_error(WeightsError, lambda: read_safetensors(bad), ["header"])
        # bf16: the high halves of f32 values.
        values = np.array([1.5, -2.0, 0.15625], dtype=np.float32)
        raw = (values.view(np.uint32) >> 16).astype("<u2").tobytes()
        header = json.dumps({"w": {"dtype": "BF16", "shape": [3], "data_offsets": [0, len(raw)]}}).encode()
        good = tmp / "bf16.safetensors"
        good.write_bytes(struct.pack("<Q", len(header)) + header + raw)
        assert np.array_equal(read_safetensors(good)["w"], values)
        base = {"model_type": "marian", "d_model": 32, "encoder_attention_heads": 4, "decoder_attention_heads": 4,
                "activation_function": "swish"}
        convert_opus.check_config(base)
        for change, words in (({"activation_function": "mish"}, ["activation_function", "mish"]),
                              ({"normalize_before": True}, ["normalize_before"]),
                              ({"model_type": "bart"}, ["model_type", "bart"]),
                              ({"d_model": 30}, ["d_model", "heads"])):
            expect_error(convert_opus.ConversionError, lambda: convert_opus.check_config({**base, **change}), words)
        expect_error(convert_opus.ConversionError, lambda: convert_opus.generation({}, {"no_repeat_ngram_size": 3}, {}),
                     ["no_repeat_ngram_size"])
        assert convert_opus.languages_of("Helsinki-NLP/opus-mt-tc-big-en-fr") == ["en", "fr"]
        assert convert_opus.normal_code("jap") == "ja"
        assert convert_opus.language_tokens({">>jpn<<": 3, ">>zho_Hans<<": 4, ">>zho<<": 5, "a": 1}) == {"ja": ">>jpn<<", "zh": ">>zho<<"}
    print("convert_opus: readers and refusals ok")


if __name__ == "__main__":
    main()
