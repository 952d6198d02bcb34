#!/usr/bin/env python3
"""NeuTTS's stages timed apart in Python, for comparison with `warble bench stages neutts`.

Usage: neutts_bench.py --model-dir DIR --codec FILE [--backbone PATH] [--tokens N] [--repeats R] [--threads T]
                       [--chunk 25,50]
Prints one JSON line with the Swift command's keys. The control flow is tools/neutts/reference.py's
(prompt_ids_torch_path, Backbone.generate with the authors' sampling, Codec.decode, stream), unchanged;
only the sessions (threads) and Backbone.run / Codec.decode (a clock around every onnxruntime run) are
overridden. The request is the Swift side's: the fixed phonemes of a reference transcript and a
sentence, 100 reference codes, N tokens sampled with seed 0 and the end token barred throughout
(min_new_tokens = N, max_context = prompt + N), every token decoded as its code (its speech code, else
id mod 65536), the codec over all of them, and the authors' streaming for each chunk size, simulated
as `simulate` says (the Swift side's NeuTTSStreamTiming).
"""
import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort

from tools.neutts import reference

REF_PHONEMES = "sˌoʊ aɪ dʒˈʌst tɹˈaɪd ðɪs lˈɪɾəl spˈiːkɚ, ænd ɪt sˈaʊndz klˈiːn ænd kwˈɪk."
PHONEMES = "ðə kwˈɪk bɹˈaʊn fˈɑːks dʒˈʌmps ˌoʊvɚ ðə lˈeɪzi dˈɑːɡ, ðˈɛn ɪt ɹˈʌnz ˌɪntʊ ðə wˈʊdz."
REF_CODES = [(7919 * i + 13) % 65536 for i in range(100)]
CODES_PER_SECOND = reference.SAMPLE_RATE / reference.HOP  # 50
WINDOW = reference.STREAM_LOOKFORWARD + reference.STREAM_LOOKBACK + reference.STREAM_OVERLAP  # 56 besides the chunk


def make_session(path, threads):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class TimedBackbone(reference.Backbone):
    def __init__(self, path, threads):
        reference_session = reference.session
        reference.session = lambda p: make_session(p, threads)
        try:
            super().__init__(path)
        finally:
            reference.session = reference_session
        self.runs = []  # (start, end)

    def run(self, ids, mask, positions, past):
        start = time.perf_counter()
        out = super().run(ids, mask, positions, past)
        self.runs.append((start, time.perf_counter()))
        return out


class TimedCodec(reference.Codec):
    def __init__(self, path, threads):
        self.session = make_session(path, threads)
        self.calls = []  # (start, end, samples)

    def decode(self, codes):
        start = time.perf_counter()
        out = super().decode(codes)
        self.calls.append((start, time.perf_counter(), int(out.size)))
        return out


def simulate(first_token, per_token, decode_at, decode_seconds, samples):
    """The loop writes token 1 at first_token, then one every per_token; after token decode_at[i] it
    decodes chunk i (decode_seconds[i], holding the loop up, as `say` does) and hands over samples[i].
    Playback starts with the first piece that has samples; a piece that comes after the audio before it
    has played out is a stall of the difference. Returns (first audio, stalls, stall seconds, finish)."""
    clock, written, played_until = first_token, 1, None
    first_audio, stalls, stall_s = None, 0, 0.0
    for at, seconds, n in zip(decode_at, decode_seconds, samples):
        clock += max(at - written, 0) * per_token + seconds
        written = max(written, at)
        if n <= 0:
            continue
        duration = n / reference.SAMPLE_RATE
        if played_until is None:
            first_audio, played_until = clock, clock + duration
        elif clock > played_until:
            stalls += 1
            stall_s += clock - played_until
            played_until = clock + duration
        else:
            played_until += duration
    return first_audio, stalls, stall_s, clock


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", required=True)
    parser.add_argument("--backbone", default=None, help="the backbone graph inside --model-dir (default onnx/model.onnx)")
    parser.add_argument("--codec", required=True)
    parser.add_argument("--tokens", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--chunk", default="25,50")
    args = parser.parse_args()
    if args.tokens < 60:
        parser.error("--tokens must be at least 60 (a chunk of 50 with its 5 of look-ahead)")
    try:
        chunks = [int(c) for c in args.chunk.split(",")]
    except ValueError:
        chunks = []
    if not chunks or not all(5 <= c <= 500 for c in chunks):
        parser.error("--chunk takes chunk sizes of 5-500 codes, comma-separated (e.g. 25,50)")
    n = args.tokens
    report = dict(impl="python", threads=args.threads, tokens=n, repeats=args.repeats, reference_codes=len(REF_CODES))

    start = time.perf_counter()
    model_dir = Path(args.model_dir)
    backbone_path = model_dir / args.backbone if args.backbone else next(
        p for p in (model_dir / "onnx" / "model.onnx", model_dir / "model.onnx") if p.exists())
    tokenizer = reference.load_tokenizer(model_dir / "tokenizer.json")
    backbone = TimedBackbone(backbone_path, args.threads)
    codec = TimedCodec(args.codec, args.threads)
    report["load_s"] = time.perf_counter() - start
    report["layers"] = backbone.layers
    end_id = tokenizer.token_to_id(reference.SPEECH_GENERATION_END)
    speech_0 = tokenizer.token_to_id("<|speech_0|>")

    def code(token):  # the speech tokens are contiguous (checked below)
        return token - speech_0 if speech_0 <= token < speech_0 + 65536 else token % 65536

    assert tokenizer.token_to_id("<|speech_65535|>") == speech_0 + 65535
    prompt = reference.prompt_ids_torch_path(tokenizer, REF_PHONEMES, PHONEMES, REF_CODES)
    report["prompt_tokens"] = len(prompt)
    if len(prompt) + n > reference.MAX_CONTEXT:
        raise SystemExit(f"the prompt ({len(prompt)} tokens) and --tokens {n} exceed the {reference.MAX_CONTEXT}-token context")

    def generate(steps):
        draws = reference.SplitMix64(0).uniform
        return backbone.generate(prompt, end_id, draws=draws, max_context=len(prompt) + steps, min_new_tokens=steps)

    # Warm-up: two steps, the codec on each window size the measurement decodes.
    generate(2)
    warm = [(31 * i) % 65536 for i in range(n)]
    codec.decode(warm)
    for size in chunks:
        codec.decode(warm[:size + WINDOW])

    per_token, first_token, codec_seconds = [], [], []
    decode_wall = decode_run = codec_wall = codec_run = 0.0
    chunk_times, chunk_samples, chunk_at, chunk_final = {c: [] for c in chunks}, {}, {}, {}
    for _ in range(args.repeats):
        backbone.runs.clear()
        start = time.perf_counter()
        result = generate(n)
        end = time.perf_counter()
        written = result["generated"]
        if len(written) != n:
            raise SystemExit(f"the backbone wrote {len(written)} tokens, not {n}: the loop ended early")
        starts = [s for s, _ in backbone.runs]
        first_token.append(starts[1] - start)
        # Token i's step: the backbone run and the sampling (up to the next run; the last to the loop's end).
        bounds = starts[1:] + [end]
        per_token += [b - a for a, b in zip(bounds[:-1], bounds[1:])]
        decode_wall += end - starts[1]
        decode_run += sum(e - s for s, e in backbone.runs[1:])
        report["generated"] = len(written)
        report["first_tokens"] = written[:8]
        codes = [code(t) for t in written]

        codec.calls.clear()
        start = time.perf_counter()
        audio = codec.decode(codes)
        seconds = time.perf_counter() - start
        codec_seconds.append(seconds)
        codec_wall += seconds
        codec_run += sum(e - s for s, e, _ in codec.calls)
        report["audio_s"] = audio.size / reference.SAMPLE_RATE
        full = len(codes) * reference.HOP
        if audio.size not in (full, full - reference.HOP) or not np.isfinite(audio).all():
            raise SystemExit(f"the codec gave {audio.size} samples for {len(codes)} codes (finite: {np.isfinite(audio).all()})")

        items = [reference.speech_token(c) for c in codes]
        for size in chunks:
            codec.calls.clear()
            pieces, records = reference.stream(codec, REF_CODES, items, frames_per_chunk=size)
            chunk_times[size].append([e - s for s, e, _ in codec.calls])
            chunk_samples[size] = [int(p.size) for p in pieces]
            chunk_at[size] = [r["cache_length"] - len(REF_CODES) for r in records]
            chunk_final[size] = [r["final"] for r in records]

    token = statistics.median(per_token)
    first = statistics.median(first_token)
    codec_median = statistics.median(codec_seconds)
    report.update(
        per_token_ms=token * 1000, first_token_s=first, decode_outside_run=(decode_wall - decode_run) / decode_wall,
        codec_s=codec_median, codec_s_per_audio_s=codec_median / report["audio_s"],
        codec_outside_run=(codec_wall - codec_run) / codec_wall,
        predicted_rtf=(n * token + codec_median) / (n / CODES_PER_SECOND),
    )
    streaming = {}
    for size in chunks:
        decodes = [statistics.median(run[i] for run in chunk_times[size]) for i in range(len(chunk_samples[size]))]
        first_audio, stalls, stall_s, finish = simulate(first, token, chunk_at[size], decodes, chunk_samples[size])
        regular = [d for d, final in zip(decodes, chunk_final[size]) if not final]
        chunk_decode = statistics.median(regular) if regular else None
        streaming[str(size)] = dict(
            chunk=size, codes_per_decode=size + WINDOW, chunk_decode_s=chunk_decode, final_decode_s=decodes[-1],
            pieces=sum(1 for s in chunk_samples[size] if s > 0), first_audio_s=first_audio, stalls=stalls, stall_s=stall_s,
            finish_s=finish, audio_s=sum(chunk_samples[size]) / reference.SAMPLE_RATE,
            streaming_rtf=None if chunk_decode is None else (size * token + chunk_decode) / (size / CODES_PER_SECOND))
    report["streaming"] = streaming
    print(json.dumps({k: v for k, v in report.items() if v is not None}, sort_keys=True))


if __name__ == "__main__":
    main()
