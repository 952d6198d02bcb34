"""Runs converted Whisper graphs with Python onnxruntime (reference for parity checks and fixtures)."""

from __future__ import annotations

import json
import os

import numpy as np
import onnxruntime as ort


class OrtWhisper:
    def __init__(self, model_dir: str, threads: int = 2):
        with open(os.path.join(model_dir, "manifest.json"), encoding="utf-8") as f:
            self.manifest = json.load(f)
        self.config = self.manifest["config"]
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        providers = ["CPUExecutionProvider"]
        self.encoder = ort.InferenceSession(os.path.join(model_dir, "encoder.onnx"), options, providers=providers)
        self.decoder = ort.InferenceSession(os.path.join(model_dir, "decoder.onnx"), options, providers=providers)
        c = self.config
        self.layers, self.heads, self.head_dim = c["decoder_layers"], c["decoder_heads"], c["head_dim"]

    def encode(self, mel: np.ndarray) -> dict[str, np.ndarray]:
        """mel [n_mels, 3000] or [B, n_mels, 3000] -> {'hidden', 'cross_k_i', 'cross_v_i'}."""
        mel = np.ascontiguousarray(mel if mel.ndim == 3 else mel[None], dtype=np.float32)
        names = [o.name for o in self.encoder.get_outputs()]
        return dict(zip(names, self.encoder.run(None, {"mel": mel})))

    def empty_cache(self, batch: int = 1) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per-layer K (transposed) and V caches holding no position yet."""
        k = [np.zeros((batch, self.heads, self.head_dim, 0), np.float32) for _ in range(self.layers)]
        v = [np.zeros((batch, self.heads, 0, self.head_dim), np.float32) for _ in range(self.layers)]
        return k, v

    def decode(self, tokens: np.ndarray, past: tuple[list, list], encoded: dict,
               positions: list[int] | None = None) -> tuple:
        """Logits [B, len(positions), V] of the given positions of the call (all by default) and the
        extended cache."""
        tokens = np.asarray(tokens, dtype=np.int64)
        if positions is None:
            positions = list(range(tokens.shape[1]))
        feeds = {"tokens": tokens, "offset": np.array([past[0][0].shape[-1]], np.int64),
                 "logit_positions": np.array(positions, np.int64)}
        names = ["logits"]
        for i in range(self.layers):
            feeds[f"past_k_{i}"], feeds[f"past_v_{i}"] = past[0][i], past[1][i]
            feeds[f"cross_k_{i}"] = encoded[f"cross_k_{i}"]
            feeds[f"cross_v_{i}"] = encoded[f"cross_v_{i}"]
            names += [f"present_k_{i}", f"present_v_{i}"]
        out = self.decoder.run(names, feeds)
        return out[0], (out[1::2], out[2::2])

    def greedy(self, encoded: dict, prompt: list[int], max_new: int = 224,
               forced: list[int] | None = None) -> tuple[list[int], list[np.ndarray]]:
        """Greedy decoding with suppress_ids every step and suppress_ids_begin at the first step,
        as ctranslate2 does for faster-whisper (no timestamps). With `forced`, feeds those tokens
        instead of the argmax (teacher forcing, to compare per-step logits). Returns the generated
        ids (without end of text) and the raw logits of each step."""
        c = self.config
        eot = c["special_tokens"]["eot"]
        suppress = np.array(c["suppress_ids"], np.int64)
        begin = np.array(c["suppress_ids_begin"], np.int64)
        past = self.empty_cache()
        out, step_logits = [], []
        feed = list(prompt)
        limit = min(max_new, c["n_text_ctx"] - len(prompt))
        for step in range(limit):
            logits, past = self.decode(np.array([feed]), past, encoded, positions=[len(feed) - 1])
            raw = logits[0, -1].copy()
            step_logits.append(raw)
            masked = raw.copy()
            masked[suppress] = -np.inf
            if step == 0:
                masked[begin] = -np.inf
            token = int(np.argmax(masked))
            if forced is not None:
                if step >= len(forced):
                    break
                token = forced[step]
            if token == eot:
                break
            out.append(token)
            feed = [token]
        return out, step_logits
