#!/usr/bin/env python3
"""CosyVoice 3's stages timed apart in Python, for comparison with `warble bench stages cosyvoice3`.

Usage: cosyvoice3_bench.py --model-dir DIR [--variant fp32|fp16] [--tokens N] [--prompt-tokens P]
                           [--repeats R] [--threads T]
Prints one JSON line with the Swift command's keys. The control flow is tools/cosyvoice3/reference.py's
(Model.generate, silence_filter, Model.flow, Model.hift), unchanged; only Model.session (threads) and
Model.run (a clock around every onnxruntime run) are overridden. The request is the Swift side's:
prompt text of 30 ids and <|endofprompt|>, tokens/20 text ids (max_len = tokens), P prompt tokens.
"""
import argparse
import json
import statistics
import time

import numpy as np
import onnxruntime as ort

from tools.cosyvoice3 import reference


class TimedModel(reference.Model):
    def __init__(self, directory, variant, threads):
        super().__init__(directory, variant)
        self.threads = threads
        self.runs = []  # (name, start, end)

    def session(self, name):
        if name not in self.sessions:
            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            self.sessions[name] = ort.InferenceSession(str(self.dir / name), options, providers=["CPUExecutionProvider"])
        return self.sessions[name]

    def run(self, name, **feeds):
        start = time.perf_counter()
        out = super().run(name, **feeds)
        self.runs.append((name, start, time.perf_counter()))
        return out

    def inside(self, start, end):
        return sum(e - s for _, s, e in self.runs if start <= s and e <= end)


def request(tts_count, prompt_tokens):
    prompt_text = [(1000 + 37 * i) % 151643 for i in range(30)] + [reference.ENDOFPROMPT]
    tts_text = [(5000 + 53 * i) % 151643 for i in range(tts_count)]
    prompt = [(17 * i + 3) % 6561 for i in range(prompt_tokens)]
    mel = (0.5 * np.sin(0.01 * np.arange(2 * prompt_tokens * 80, dtype=np.float32))).reshape(2 * prompt_tokens, 80)
    embedding = np.cos(0.3 * np.arange(192, dtype=np.float32))
    return prompt_text, tts_text, prompt, mel.astype(np.float32), embedding.astype(np.float32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", required=True)
    parser.add_argument("--variant", default="fp32")
    parser.add_argument("--tokens", type=int, default=100)
    parser.add_argument("--prompt-tokens", type=int, default=75)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if args.tokens < 20 or args.tokens % 20:
        parser.error("--tokens must be a positive multiple of 20")
    n = args.tokens
    report = dict(impl="python", variant=args.variant, threads=args.threads, tokens=n, prompt_tokens=args.prompt_tokens,
                  repeats=args.repeats)

    start = time.perf_counter()
    model = TimedModel(args.model_dir, args.variant, args.threads)
    for stem in ("llm_speech_embedding", "llm_backbone_initial", "llm_backbone_decode", "llm_decoder", "flow_token_embedding",
                 "flow_pre_lookahead", "flow_speaker_projection", "flow.decoder.estimator"):
        model.session(model.v(stem))
    for name in ("text_embedding_fp32.onnx", "hift_f0_predictor_fp32.onnx", "hift_source_generator_fp32.onnx",
                 "hift_decoder_fp32.onnx"):
        model.session(name)
    report["load_s"] = time.perf_counter() - start
    noise = np.random.default_rng(1).standard_normal((1, 80, 2 * (args.prompt_tokens + n) + 8)).astype(np.float32)

    # Warm-up: a 20-token loop, then flow and HiFT over its first token.
    text, tts, prompt, mel, embedding = request(1, args.prompt_tokens)
    warm = model.generate(text, tts, prompt, seed=1)[0]
    warm_mel = model.flow(warm[:1], prompt, mel, embedding, noise)
    model.hift(warm_mel)

    text, tts, prompt, mel, embedding = request(n // 20, args.prompt_tokens)
    decoder = model.v("llm_decoder")
    per_token, first_token, flow, hift = [], [], [], []
    decode_wall = decode_run = flow_wall = flow_run = hift_wall = hift_run = 0.0
    for _ in range(args.repeats):
        model.runs.clear()
        start = time.perf_counter()
        tokens, stop, *_ = model.generate(text, tts, prompt, seed=1)
        if len(tokens) != n or stop is not None:
            raise SystemExit(f"the LLM sampled {len(tokens)} tokens (stop {stop}), not {n}: these graphs stop early")
        starts = [s for name, s, _ in model.runs if name == decoder]
        # Prefill + first token: the prompt's embeddings, the initial pass, the first decoder run and
        # sample, and the backbone step that feeds that token back, up to the second decoder run. The
        # Swift side's first call covers the same runs (its sample step runs the backbone step too).
        first_token.append(starts[1] - start)
        # Token i's step: its decoder run, sampling, speech embedding, backbone step (up to the next decoder run).
        per_token += [b - a for a, b in zip(starts[1:-1], starts[2:])]
        decode_wall += starts[-1] - starts[1]
        decode_run += model.inside(starts[1], starts[-1])
        generated = reference.silence_filter(tokens)
        report["generated"] = len(generated)

        model.runs.clear()
        start = time.perf_counter()
        out_mel = model.flow(generated, prompt, mel, embedding, noise)
        end = time.perf_counter()
        flow.append(end - start)
        flow_wall += end - start
        flow_run += model.inside(start, end)
        report["flow_frames"] = 2 * (args.prompt_tokens + len(generated))

        model.runs.clear()
        start = time.perf_counter()
        audio, _ = model.hift(out_mel)
        end = time.perf_counter()
        hift.append(end - start)
        hift_wall += end - start
        hift_run += model.inside(start, end)
        report["audio_s"] = audio.size / 24000
        if not np.isfinite(audio).all():
            raise SystemExit("HiFT gave values that are not finite")
    audio_seconds = n / 25
    token = statistics.median(per_token)
    report.update(
        per_token_ms=token * 1000, first_token_s=statistics.median(first_token),
        decode_outside_run=(decode_wall - decode_run) / decode_wall,
        flow_s=statistics.median(flow), flow_s_per_audio_s=statistics.median(flow) / audio_seconds,
        flow_outside_run=(flow_wall - flow_run) / flow_wall,
        hift_s=statistics.median(hift), hift_s_per_audio_s=statistics.median(hift) / audio_seconds,
        hift_outside_run=(hift_wall - hift_run) / hift_wall,
        predicted_rtf=(n * token + statistics.median(flow) + statistics.median(hift)) / audio_seconds,
    )
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
