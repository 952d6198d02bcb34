#!/usr/bin/env python3
"""The encoder of an int8 Whisper model (quantize_int8.py) against its f32 model on faster-whisper's features of one
clip (ONNX Runtime): the relative L2 difference of the outputs must stay under BOUND (scripts/test-cli.sh, on
tools/whisper/random_large.py's large-v3-turbo miniature: measured 0.046). Their transcripts are not compared there:
the miniature's random d_model-64 logits have margins so small that int8 changes the first token already.

    check_int8_encoder.py F32_DIR INT8_DIR LARGE_FIXTURES_DIR [CLIP]     (CLIP default de_wetter)
"""
import json
import sys

import numpy as np
import onnxruntime as ort

BOUND = 0.1
N_FRAMES = 3000


def encode(directory: str, mel: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(f"{directory}/encoder.onnx", providers=["CPUExecutionProvider"])
    # faster-whisper's window: at most 3000 frames, padded with 0.0 in the normalised domain.
    window = np.pad(mel[:, :N_FRAMES], ((0, 0), (0, max(0, N_FRAMES - mel.shape[1]))))
    return session.run(None, {session.get_inputs()[0].name: window[None].astype(np.float32)})[0]


def main(argv: list[str]) -> int:
    f32, int8, large = argv[:3]
    clip = argv[3] if len(argv) > 3 else "de_wetter"
    features = json.load(open(f"{large}/index.json", encoding="utf-8"))["features"]["clips"][clip]
    mel = np.fromfile(f"{large}/{features['file']}", "<f4").reshape(features["shape"])
    a, b = encode(f32, mel), encode(int8, mel)
    relative = float(np.linalg.norm(a - b) / np.linalg.norm(a))
    print(f"int8 encoder vs f32 ({clip}): relative L2 difference {relative:.4f} (bound {BOUND}), "
          f"max abs {float(np.abs(a - b).max()):.4f}")
    return 0 if relative < BOUND else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
