#!/usr/bin/env python3
"""Smoke test of an installed or freshly made Whisper model directory: both graphs load in ONNX Runtime
and give the documented shapes. Usage: smoke_test.py MODEL_DIR (exit status 1 with the reason)."""
import sys

import numpy as np
from tools.whisper.ort_whisper import OrtWhisper


def main() -> None:
    m = OrtWhisper(sys.argv[1], threads=1)
    c = m.config
    enc = m.encode(np.full((c["n_mels"], c["n_frames"]), -0.5, np.float32))
    assert enc["hidden"].shape == (1, c["n_audio_ctx"], c["d_model"]), enc["hidden"].shape
    logits, (k, v) = m.decode(np.array([[c["special_tokens"]["sot"]]]), m.empty_cache(), enc)
    assert logits.shape == (1, 1, c["n_vocab"]) and np.isfinite(logits).all(), logits.shape
    assert len(k) == len(v) == c["decoder_layers"], (len(k), len(v))
    assert k[0].shape == (1, c["decoder_heads"], c["head_dim"], 1), k[0].shape
    assert v[0].shape == (1, c["decoder_heads"], 1, c["head_dim"]), v[0].shape


if __name__ == "__main__":
    main()
