#!/usr/bin/env python3
"""Chatterbox Turbo's stages timed apart in Python, for comparison with `warble bench stages chatterbox`.

Usage: chatterbox_bench.py --model-dir DIR [--variant fp32|q4f16] [--tokens N] [--repeats R] [--threads T]
Prints one JSON line with the Swift command's keys. The control flow is tools/chatterbox/reference.py's
(Model.encode_voice, Model.generate greedy with the repetition penalty, Model.decode), unchanged; only
Model.session (threads) and Model.run (a clock around every onnxruntime run) are overridden. The
request is the Swift side's: a 10-s clip (two sines) through the speech encoder, 30 text ids, N
decode steps (the graphs must not stop before), the decoder on prompt ++ speech ++ 3 silence tokens,
and on every chunk length that streaming 10 s and 30 s of speech decodes (reference.chunk_plan: the growing
chunks, and the fixed 25-token chunks of before for the `_fixed` keys; each length timed once a repeat, the
speech repeated to that length). stream_cost() states the streaming keys; the Swift side computes the same.
"""
import argparse
import json
import statistics
import time

import numpy as np
import onnxruntime as ort

from tools.chatterbox import reference

CLIP_SECONDS = 10
TOKENS_PER_SECOND = reference.SAMPLE_RATE / reference.TOKEN_SAMPLES  # 25
VARIANTS = {"fp32": "", "q4f16": "_q4f16"}
STREAMS = [(reference.CHUNK, reference.CHUNK_CAP, 10), (reference.CHUNK, reference.CHUNK, 10),
           (reference.CHUNK, reference.CHUNK_CAP, 30), (reference.CHUNK, reference.CHUNK, 30)]  # (first, cap, seconds)


def decoder_inputs(first, cap, n):
    """Each chunk's decoder input after the prompt, in tokens: its context, new tokens and (final) silence."""
    return [min(reference.CONTEXT, s) + e - s + (reference.SILENCE_TOKENS if final else 0)
            for s, e, final in reference.chunk_plan(n, first, cap)]


def stream_cost(first, cap, n, per_token, decoder):
    """(decoder seconds summed over the chunks, first audio, stall, rtf) of streaming n tokens, tokens and chunks
    made one after the other; decoder(length) = the decoder's seconds for a chunk input of that length. Playback
    begins with the first chunk's audio and waits (stalls) whenever the next chunk is not ready."""
    total = ready = played_to = stall = first_audio = 0.0
    for k, ((s, e, final), length) in enumerate(zip(reference.chunk_plan(n, first, cap), decoder_inputs(first, cap, n))):
        seconds = decoder(length)
        total += seconds
        ready += (e - s) * per_token + seconds
        if final:
            emitted = (e - s + reference.SILENCE_TOKENS) * reference.TOKEN_SAMPLES + (reference.CROSSFADE if k > 0 else 0)
        else:
            emitted = (e - s) * reference.TOKEN_SAMPLES - (reference.CROSSFADE if k == 0 else 0)
        if k == 0:
            first_audio = played_to = ready
        elif ready > played_to:
            stall, played_to = stall + ready - played_to, ready
        played_to += emitted / reference.SAMPLE_RATE
    return total, first_audio, stall, (n * per_token + total) / (n / TOKENS_PER_SECOND)


class TimedModel(reference.Model):
    def __init__(self, repo, suffix, threads):
        self.threads = threads
        self.runs = []  # (stem, start, end)
        super().__init__(repo, suffix)

    def session(self, stem):
        if stem not in self.sessions:
            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            path = self.repo / "onnx" / f"{stem}{self.suffix}.onnx"
            self.sessions[stem] = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        return self.sessions[stem]

    def run(self, stem, **feeds):
        start = time.perf_counter()
        out = super().run(stem, **feeds)
        self.runs.append((stem, start, time.perf_counter()))
        return out

    def inside(self, start, end):
        return sum(e - s for _, s, e in self.runs if start <= s and e <= end)

    def timed(self, call):
        """(result, wall seconds, share outside ORT runs) of call()."""
        self.runs.clear()
        start = time.perf_counter()
        result = call()
        end = time.perf_counter()
        return result, end - start, (end - start - self.inside(start, end)) / (end - start)


def request():
    t = np.arange(CLIP_SECONDS * reference.SAMPLE_RATE, dtype=np.float64) / reference.SAMPLE_RATE
    clip = (0.1 * np.sin(2 * np.pi * 180 * t) + 0.05 * np.sin(2 * np.pi * 523 * t)).astype(np.float32)
    text = [(1000 + 37 * i) % 50257 for i in range(30)]
    return clip, text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", required=True)
    parser.add_argument("--variant", default="fp32", choices=sorted(VARIANTS))
    parser.add_argument("--tokens", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if args.tokens < 30:
        parser.error("--tokens must be at least 30")
    n = args.tokens
    report = dict(impl="python", variant=args.variant, threads=args.threads, tokens=n, repeats=args.repeats, clip_s=CLIP_SECONDS)

    start = time.perf_counter()
    model = TimedModel(args.model_dir, VARIANTS[args.variant], args.threads)
    for stem in ("speech_encoder", "embed_tokens", "conditional_decoder"):
        model.session(stem)
    report["load_s"] = time.perf_counter() - start

    clip, text = request()
    voice = model.encode_voice(clip)  # warm-up
    voice, report["encoder_s"], _ = model.timed(lambda: model.encode_voice(clip))
    prompt = voice["audio_tokens"][0]
    report["prefill_rows"] = int(voice["audio_features"].shape[1]) + len(text)
    report["prompt_tokens"] = int(prompt.size)
    # Warm-up: two steps, and the decoder over a few tokens.
    warm = model.generate(voice["audio_features"], text, max_new_tokens=2)["speech"]
    model.decode(prompt, warm, voice["speaker_embeddings"], voice["speaker_features"])

    per_token, first_token, decoder = [], [], []
    lengths = sorted({length for first, cap, seconds in STREAMS
                      for length in decoder_inputs(first, cap, int(seconds * TOKENS_PER_SECOND))})
    chunk = {length: [] for length in lengths}
    decode_wall = decode_run = decoder_wall = decoder_run = 0.0
    for _ in range(args.repeats):
        model.runs.clear()
        start = time.perf_counter()
        result = model.generate(voice["audio_features"], text, max_new_tokens=n)
        if len(result["speech"]) != n or result["stopped"]:
            raise SystemExit(f"the language model wrote {len(result['speech'])} speech tokens (stopped: {result['stopped']}), "
                             f"not {n}: these graphs stop early")
        starts = [s for stem, s, _ in model.runs if stem == "language_model"]
        first_token.append(starts[1] - start)
        # Token i's step: the language-model run, the penalty and argmax, embed_tokens (up to the next run).
        per_token += [b - a for a, b in zip(starts[1:-1], starts[2:])]
        decode_wall += starts[-1] - starts[1]
        decode_run += model.inside(starts[1], starts[-1])
        speech = result["speech"]
        report["generated"] = len(speech)

        audio, seconds, _ = model.timed(lambda: model.decode(prompt, speech, voice["speaker_embeddings"], voice["speaker_features"]))
        decoder.append(seconds)
        decoder_wall += seconds
        decoder_run += model.inside(0, float("inf"))
        report["audio_s"] = audio.size / reference.SAMPLE_RATE
        if audio.size != (n + reference.SILENCE_TOKENS) * reference.TOKEN_SAMPLES or not np.isfinite(audio).all():
            raise SystemExit(f"the decoder gave {audio.size} samples (finite: {np.isfinite(audio).all()})")
        for length in lengths:   # each chunk length the streams decode, once: the speech repeated to that length
            window = [speech[i % len(speech)] for i in range(length)]
            _, seconds, _ = model.timed(lambda: model.decode(prompt, window, voice["speaker_embeddings"],
                                                             voice["speaker_features"], silence=False))
            chunk[length].append(seconds)
    token = statistics.median(per_token)
    audio_seconds = n / TOKENS_PER_SECOND
    report.update(
        per_token_ms=token * 1000, first_token_s=statistics.median(first_token),
        decode_outside_run=(decode_wall - decode_run) / decode_wall,
        decoder_s=statistics.median(decoder), decoder_s_per_audio_s=statistics.median(decoder) / report["audio_s"],
        decoder_outside_run=(decoder_wall - decoder_run) / decoder_wall,
        predicted_rtf=(n * token + statistics.median(decoder)) / audio_seconds,
    )
    for first, cap, seconds in STREAMS:
        total, first_audio, stall, rtf = stream_cost(first, cap, int(seconds * TOKENS_PER_SECOND), token,
                                                     lambda length: statistics.median(chunk[length]))
        suffix = f"{seconds}s" + ("_fixed" if cap == first else "")
        report[f"stream_decoder_s_{suffix}"], report[f"stream_stall_s_{suffix}"] = total, stall
        if seconds == 30:
            report["streaming_rtf" + ("_fixed" if cap == first else "")] = rtf
            report["stream_first_audio_s"] = first_audio
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
