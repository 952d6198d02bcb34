#!/usr/bin/env python3
"""Greedy decoding over the converted Marian graphs (encoder.onnx, decoder.onnx), as bergamot's engine
decodes with beam-size 1: the reference a Swift port matches.

    reference.py MODEL_OUT_DIR "text" ["text" ...]

Loop (one sentence, batch 1): ids = SentencePiece(text) + [EOS=0]; encoder(ids, mask=1) -> enc;
shortlist = Shortlist.indices(ids) (first 50 ids, each source id and its best 50 translations,
padded to a multiple of 8, sorted); states = zeros; prev = -1 (Marian's first target embedding is
zeros); for t in 0 .. ceil(2.5 * len(ids)) - 1: logits = decoder(prev, t, states, enc, mask,
shortlist); word = shortlist[argmax(logits)] (first index on ties); stop if word == EOS; else emit
it, prev = word. The last step at the length limit keeps its word (marian's History: no forced EOS).
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np  # noqa: I001
import onnxruntime as ort
from tokenizers import Tokenizer

from tools.marian import marian_file  # noqa: E402

EOS = 0


class Translator:
    def __init__(self, model_dir, max_length_factor=2.5, use_shortlist=True, threads=1):
        d = Path(model_dir)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        self.encoder = ort.InferenceSession(str(d / "encoder.onnx"), opts, providers=["CPUExecutionProvider"])
        self.decoder = ort.InferenceSession(str(d / "decoder.onnx"), opts, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(d / "tokenizer.json"))
        try:  # sentencepiece (pinned in tools/requirements.lock) with the model's own .spm
            import sentencepiece
            self.spm = sentencepiece.SentencePieceProcessor(model_file=str(d / "vocab.spm"))
        except ImportError:  # the same vocabulary as a tokenizers Unigram
            self.spm = None
        self.shortlist = marian_file.read_shortlist(str(d / "shortlist.bin")) if use_shortlist else None
        self.vocab = self.tokenizer.get_vocab_size()
        self.factor = max_length_factor
        self.states = [i.name for i in self.decoder.get_inputs() if i.name.startswith("state_")]
        self.dim = self.decoder.get_inputs()[2].shape[1]

    def encode(self, text):
        if self.spm is not None:
            return list(self.spm.encode(text)) + [EOS]
        return self.tokenizer.encode(text, add_special_tokens=False).ids + [EOS]

    def decode_ids(self, src):
        ids = np.array([src], np.int64)
        mask = np.ones_like(ids)
        (enc,) = self.encoder.run(None, {"input_ids": ids, "attention_mask": mask})
        short = (self.shortlist.indices(src, self.vocab) if self.shortlist is not None
                 else np.arange(self.vocab, dtype=np.int64))
        states = [np.zeros((1, self.dim), np.float32) for _ in self.states]
        prev, out = -1, []
        limit = math.ceil(self.factor * len(src))
        for t in range(limit):
            feeds = {"prev_ids": np.array([[prev]], np.int64), "position": np.array([t], np.int64),
                     "encoder_out": enc, "attention_mask": mask, "shortlist": short}
            feeds.update(zip(self.states, states))
            logits, *states = self.decoder.run(None, feeds)
            word = int(short[int(np.argmax(logits[0]))])
            if word == EOS:
                break
            out.append(word)
            prev = word
        return out

    def translate(self, text):
        ids = self.decode_ids(self.encode(text))
        return self.spm.decode(ids) if self.spm is not None else self.tokenizer.decode(ids)


def main(argv):
    t = Translator(argv[0])
    for text in argv[1:]:
        print(t.translate(text))


if __name__ == "__main__":
    main(sys.argv[1:])
