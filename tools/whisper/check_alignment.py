#!/usr/bin/env python3
"""Word alignment parity: the converted graphs' cross-attention scores, post-processed by
word_alignment.py, against ctranslate2's own `Whisper.align` on the same window and text, for every
test clip and installed model (the text: faster-whisper's transcript with word_timestamps=True).

    check_alignment.py [MODEL_IDS...]

Prints per clip how many DTW path points differ (ideally none) and the largest token probability
difference; exits 1 when the paths differ in more than 2 % of points or a probability by 1e-3 or more.
The Swift port is checked against faster-whisper's word times themselves (make_fixtures.py).
"""

from __future__ import annotations

import sys
import tempfile


import numpy as np

from tools.whisper.check_parity import model_paths, window_features
from tools.whisper.clips import CLIPS, make_clips, read_wav
from tools.whisper.ort_whisper import OrtWhisper
from tools.whisper.word_alignment import align


def check_model(model_id: str, clips: list[dict]) -> bool:
    import ctranslate2
    from faster_whisper import WhisperModel

    onnx_dir, ct2_dir = model_paths(model_id)
    ours = OrtWhisper(onnx_dir)
    fw = WhisperModel(ct2_dir, device="cpu", compute_type="float32", cpu_threads=2)
    ok = True
    for clip in clips:
        multilingual = ours.config["multilingual"]
        if not multilingual and clip["language"] != "en":
            continue
        audio = read_wav(clip["path"])
        segments, info = fw.transcribe(audio, language=clip["language"] if multilingual else None,
                                       word_timestamps=True)
        segments = list(segments)
        text_tokens = [t for s in segments for t in s.tokens if t < ours.config["special_tokens"]["eot"]]
        mel = window_features(fw, audio)
        num_frames = min(3000, fw.feature_extractor(audio).shape[-1] - 1)
        ids = ours.config["special_tokens"]
        if multilingual:
            lang = ours.config["lang_ids"][ours.config["lang_codes"].index(info.language)]
            sot_sequence = [ids["sot"], lang, ids["transcribe"]]
        else:
            sot_sequence = [ids["sot"]]
        theirs = fw.model.align(fw.model.encode(ctranslate2.StorageView.from_array(mel[None]), to_cpu=True),
                                sot_sequence, [text_tokens], num_frames)[0]
        path, probs = align(ours, ours.encode(mel), sot_sequence, text_tokens, num_frames)
        reference = [tuple(p) for p in theirs.alignments]
        differing = len(set(path) ^ set(reference))
        prob_error = float(np.max(np.abs(np.array(probs) - np.array(theirs.text_token_probs)))) if probs else 0.0
        words = [w for s in segments for w in s.words]
        status = "ok" if differing <= 0.02 * max(1, len(reference)) and prob_error < 1e-3 else "DIFFERS"
        ok &= status == "ok"
        print(f"{model_id} {clip['name']}: {len(text_tokens)} tokens, {len(words)} words, path {len(path)} "
              f"points vs {len(reference)}, {differing} differ; token probability max error {prob_error:.2e}: "
              f"{status}")
    return ok


def main(argv: list[str]) -> int:
    ids = argv or ["whisper-tiny.en", "whisper-base"]
    with tempfile.TemporaryDirectory() as tmp:
        clips = make_clips(tmp)
        results = [check_model(m, clips) for m in ids]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
