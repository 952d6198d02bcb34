"""Word alignment from the converted graphs: a numpy reference of CTranslate2's `Whisper.align`
(the step faster-whisper's `word_timestamps=True` rests on), for checking the graphs and the Swift port.

ctranslate2 4.8.5, src/models/whisper.cc `align` and `compute_alignments`, src/dtw.cc:
  1. one decoder pass over sot_sequence + [<|notimestamps|>] + text + [<|endoftext|>];
  2. the cross-attention scores (scaled q.k, before softmax) of the model's alignment heads
     (config.json `alignment_heads`, [layer, head] pairs), cut to the window's num_frames // 2
     audio positions and softmaxed over them;
  3. standardised over the token axis (all positions of the pass, epsilon 0, population variance);
  4. a median filter of width 7 along the audio axis (mirrored edges, the edge itself not repeated);
  5. the mean over the heads; rows len(sot_sequence) .. len(sot_sequence) + len(text) (text_length + 1
     rows: the queries that predict each text token and then end of text);
  6. DTW on the negated matrix; the path's (text index, time index) pairs.
Token probabilities: softmax over the ids below end of text at each text position, of the next token.
"""

from __future__ import annotations

import numpy as np


def median_filter(x: np.ndarray, width: int) -> np.ndarray:
    """Along the last axis, mirrored at the edges without repeating them (CTranslate2's MedianFilter)."""
    depth = x.shape[-1]
    rank = width // 2
    if depth <= rank:
        return x.copy()
    index = np.abs(np.arange(depth)[:, None] + np.arange(-rank, rank + 1)[None, :])
    index = np.where(index >= depth, 2 * depth - index - 2, index)
    return np.median(x[..., index], axis=-1).astype(x.dtype)


def negative_dtw(matrix: np.ndarray) -> list[tuple[int, int]]:
    """CTranslate2's negative_dtw: the cheapest monotonic path through -matrix, ties broken towards
    moving along time (trace 2), then along text (trace 1)."""
    n, m = matrix.shape
    cost = np.full((n + 1, m + 1), np.inf, np.float32)
    trace = np.full((n + 1, m + 1), -1, np.int8)
    cost[0, 0] = 0
    for j in range(1, m + 1):
        for i in range(1, n + 1):
            c0, c1, c2 = cost[i - 1, j - 1], cost[i - 1, j], cost[i, j - 1]
            if c0 < c1 and c0 < c2:
                c, t = c0, 0
            elif c1 < c0 and c1 < c2:
                c, t = c1, 1
            else:
                c, t = c2, 2
            cost[i, j] = np.float32(-matrix[i - 1, j - 1]) + c
            trace[i, j] = t
    trace[0, :] = 2
    trace[:, 0] = 1
    i, j, path = n, m, []
    while i > 0 or j > 0:
        path.append((i - 1, j - 1))
        t = trace[i, j]
        if t == 0:
            i, j = i - 1, j - 1
        elif t == 1:
            i -= 1
        else:
            j -= 1
    return path[::-1]


def align(ours, encoded: dict, sot_sequence: list[int], text_tokens: list[int], num_frames: int,
          median_width: int = 7) -> tuple[list[tuple[int, int]], list[float]]:
    """`ours`: an OrtWhisper; `encoded`: its encode() of the window. Returns the DTW path and the
    text token probabilities, as ctranslate2's WhisperAlignmentResult."""
    c = ours.config
    ids = c["special_tokens"]
    tokens = list(sot_sequence) + [ids["notimestamps"]] + list(text_tokens) + [ids["eot"]]
    sot = len(sot_sequence)
    heads = c["alignment_heads"]
    layers = sorted({layer for layer, _ in heads})
    positions = list(range(sot, sot + len(text_tokens)))
    feeds = {"tokens": np.array([tokens], np.int64), "offset": np.array([0], np.int64),
             "logit_positions": np.array(positions or [0], np.int64)}
    past_k, past_v = ours.empty_cache()
    for i in range(ours.layers):
        feeds[f"past_k_{i}"], feeds[f"past_v_{i}"] = past_k[i], past_v[i]
        feeds[f"cross_k_{i}"], feeds[f"cross_v_{i}"] = encoded[f"cross_k_{i}"], encoded[f"cross_v_{i}"]
    out = ours.decoder.run(["logits"] + [f"cross_scores_{i}" for i in layers], feeds)
    logits, scores = out[0][0], dict(zip(layers, out[1:]))

    probs = []
    for row, token in zip(logits[:len(text_tokens)], text_tokens):
        text = row[:ids["eot"]].astype(np.float64)
        e = np.exp(text - text.max())
        probs.append(float(e[token] / e.sum()))

    frames = num_frames // 2
    if frames == 0:
        return [], probs
    weights = np.stack([scores[layer][0, head, :, :frames] for layer, head in heads])  # [A, T, F]
    weights = weights - weights.max(axis=-1, keepdims=True)
    weights = np.exp(weights)
    weights /= weights.sum(axis=-1, keepdims=True)
    mean = weights.mean(axis=1, keepdims=True)
    var = np.maximum((weights ** 2).mean(axis=1, keepdims=True) - mean ** 2, 0)
    weights = (weights - mean) / np.sqrt(var)
    weights = median_filter(weights, median_width).mean(axis=0)
    matrix = weights[sot:sot + len(text_tokens) + 1]
    return negative_dtw(matrix), probs
