"""A numpy/onnxruntime statement of Chatterbox Turbo's inference control flow, over the four ONNX
graphs of a ResembleAI/chatterbox-turbo-ONNX-style directory (real or tools/chatterbox's toys).

Written from reading resemble-ai/chatterbox (src/chatterbox/tts_turbo.py: punc_norm, norm_loudness,
prepare_conditionals, generate; src/chatterbox/models/t3/t3.py: inference_turbo;
src/chatterbox/models/s3gen/s3gen.py: trim_fade) and the ONNX usage example of the model card
(speech encoder once, concat(audio_features, embed_tokens(text)), greedy with repetition penalty,
decoder on prompt ++ speech ++ 3 x 4299). No code of theirs is copied. The choices, and where each
comes from, are listed in tools/chatterbox/README.md.
"""
import math
from pathlib import Path

import numpy as np
import onnxruntime as ort

from tools.common.splitmix import SplitMix64  # noqa: F401  (reference.SplitMix64: the draws of the sampling goldens)

START, STOP, SILENCE = 6561, 6562, 4299
SPEECH_CODES = 6561
MAX_NEW_TOKENS = 1024
PENALTY = 1.2
TEMPERATURE, TOP_K, TOP_P = 0.8, 1000, 0.95
SAMPLE_RATE, TOKEN_SAMPLES = 24000, 960
SILENCE_TOKENS = 3
TARGET_LUFS = -27.0
MIN_CLIP_SECONDS = 5.0           # tts_turbo.py asserts duration > 5.0 s
# prepare_conditionals cuts the clip: 15 s (ENC_COND_LEN, 375 prompt tokens at 25 Hz) for the language
# model, 10 s (DEC_COND_LEN) for the decoder.
ENC_COND_SECONDS, DEC_COND_SECONDS = 15, 10
# Streaming (README item 8, [U7]): chunks of 25, 50, 100, 200, 200, ... new tokens (CHUNK doubling up to CHUNK_CAP).
CHUNK, CHUNK_CAP, CONTEXT, CROSSFADE = 25, 200, 5, 240

# -------------------------------------------------------------------------------------------------
# Text

PUNCTUATION = [("…", ", "), (":", ","), ("—", "-"), ("–", "-"), (" ,", ","),
               ("“", "\""), ("”", "\""), ("‘", "'"), ("’", "'")]
SENTENCE_ENDS = (".", "!", "?", "-", ",")
EMPTY_TEXT = "You need to add some text for me to talk."


def punc_norm(text):
    """tts_turbo.py punc_norm, step by step: empty -> a fixed sentence; first code point upper-cased
    if it is lower case (before spaces are collapsed); whitespace runs (Python str.split()) -> one
    space, ends trimmed; the replacements in order; trailing spaces stripped; '.' appended unless the
    text ends with . ! ? - or ,"""
    if len(text) == 0:
        return EMPTY_TEXT
    if text[0].islower():
        text = text[0].upper() + text[1:]
    text = " ".join(text.split())
    for old, new in PUNCTUATION:
        text = text.replace(old, new)
    text = text.rstrip(" ")
    if not text.endswith(SENTENCE_ENDS):
        text += "."
    return text


def load_tokenizer(path):
    from tokenizers import Tokenizer
    return Tokenizer.from_file(str(path))


def encode(tokenizer, text):
    """What `tokenizer(text).input_ids` gives for the GPT-2 tokenizer: no BOS/EOS."""
    return tokenizer.encode(text).ids


# -------------------------------------------------------------------------------------------------
# Reference clip

def clip_duration_ok(samples, rate=SAMPLE_RATE):
    return len(samples) / rate > MIN_CLIP_SECONDS


def normalise_loudness(samples, rate=SAMPLE_RATE, target=TARGET_LUFS):
    """tts_turbo.py norm_loudness: ITU-R BS.1770 integrated loudness (pyloudnorm), gain to -27 LUFS
    when finite and positive. Returns (f32 samples, loudness, gain); the product is f32 x f32(gain)."""
    import pyloudnorm
    samples = np.asarray(samples, np.float32)
    loudness = float(pyloudnorm.Meter(rate).integrated_loudness(samples.astype(np.float64)))
    gain = 10.0 ** ((target - loudness) / 20.0)
    if math.isfinite(gain) and gain > 0:
        return (samples * np.float32(gain)).astype(np.float32), loudness, gain
    return samples, loudness, None


# -------------------------------------------------------------------------------------------------
# Sampling

def penalise(scores, tokens, penalty=PENALTY):
    """Hugging Face RepetitionPenaltyLogitsProcessor on a f32 row (each distinct token once):
    score < 0 -> score x penalty, else score / penalty; -inf stays -inf."""
    out = np.array(scores, dtype=np.float32)
    p = np.float32(penalty)
    for t in sorted(set(tokens)):
        if 0 <= t < out.size and np.isfinite(out[t]):
            out[t] = out[t] * p if out[t] < 0 else out[t] / p
    return out


def greedy(logits, penalised):
    """Model-card decoding: penalty over the penalised set, then the first largest score."""
    scores = penalise(logits, penalised)
    token = int(np.argmax(scores))
    rest = np.delete(scores, token)
    return token, dict(margin=float(scores[token] - rest.max()))


def softmax64(values):
    values = np.asarray(values, np.float64)
    e = np.exp(values - values.max())
    return e / e.sum()


def sample(logits, penalised, u, temperature=TEMPERATURE, top_k=TOP_K, top_p=TOP_P, penalty=PENALTY):
    """t3.py inference_turbo's processors in their order (temperature, top-k, top-p, repetition
    penalty), softmax, then an inverse-CDF draw of the injected uniform u over the remaining tokens
    ordered by probability (ties: lower id first)."""
    s = (np.asarray(logits, np.float32) / np.float32(temperature)).astype(np.float32)
    kth = np.sort(s)[-top_k] if s.size > top_k else -np.inf
    kept = np.nonzero(s >= kth)[0]                                   # ties at the k-th value are kept
    kept = kept[np.lexsort((kept, -s[kept].astype(np.float64)))]   # by score, then lower id
    p = softmax64(s[kept])
    above = np.concatenate([[0.0], np.cumsum(p)[:-1]])
    nucleus = kept[above < top_p]                                     # mass of more likely tokens < top_p
    final = penalise(np.where(np.isin(np.arange(s.size), nucleus), s, -np.inf).astype(np.float32), penalised, penalty)
    q = softmax64(final[nucleus])
    order = np.lexsort((nucleus, -q))
    cands, probs = nucleus[order], q[order]
    left, token, bounds = u, int(cands[-1]), []
    edge = 0.0
    for t, pr in zip(cands, probs):
        edge += pr
        bounds.append(edge)
    for t, pr in zip(cands, probs):
        left -= pr
        if left < 0:
            token = int(t)
            break
    distance = float(np.min(np.abs(np.array(bounds[:-1]) - u))) if len(bounds) > 1 else 1.0
    return token, dict(top_k_kept=int(kept.size), nucleus=int(nucleus.size), u=u, boundary_distance=distance)


# -------------------------------------------------------------------------------------------------
# The four graphs

class Model:
    """Sessions over `repo`/onnx/{name}{suffix}.onnx; every layout fact is read from the sessions."""

    def __init__(self, repo, suffix=""):
        self.repo, self.suffix = Path(repo), suffix
        self.sessions = {}
        lm = self.session("language_model")
        inputs = {i.name: i for i in lm.get_inputs()}
        self.past_names = [i.name for i in lm.get_inputs() if i.name.startswith("past_key_values.")]
        self.layers = sum(1 for n in self.past_names if n.endswith(".key"))
        first = inputs["past_key_values.0.key"]
        self.heads, self.head_dim = int(first.shape[1]), int(first.shape[3])
        self.width = int(inputs["inputs_embeds"].shape[2])
        self.kv_types = {n: self.numpy_type(inputs[n].type) for n in self.past_names}
        self.logits_type = self.numpy_type(lm.get_outputs()[0].type)
        self.present_for = {n: "present." + n[len("past_key_values."):] for n in self.past_names}

    @staticmethod
    def numpy_type(onnx_type):
        return {"tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(int64)": np.int64}[onnx_type]

    def session(self, stem):
        if stem not in self.sessions:
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1
            path = self.repo / "onnx" / f"{stem}{self.suffix}.onnx"
            self.sessions[stem] = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        return self.sessions[stem]

    def run(self, stem, **feeds):
        session = self.session(stem)
        names = [o.name for o in session.get_outputs()]
        return dict(zip(names, session.run(None, feeds)))

    # Speech encoder: once per voice ------------------------------------------------------------
    def encode_voice(self, samples_24k):
        out = self.run("speech_encoder", audio_values=np.asarray(samples_24k, np.float32)[None])
        return {k: out[k] for k in ("audio_features", "audio_tokens", "speaker_embeddings", "speaker_features")}

    def encode_voice_cut(self, samples_24k):
        """As the authors' prepare_conditionals (tts_turbo.py) cuts the clip, on the one ONNX encoder: the
        language model's conditioning (audio_features) from the first 15 s (ENC_COND_LEN; 375 prompt
        tokens), the decoder's (audio_tokens, speaker_embeddings, speaker_features) from the first 10 s
        (DEC_COND_LEN). The clip is loudness-normalised whole before the cuts, as theirs is."""
        samples = np.asarray(samples_24k, np.float32)
        if samples.size <= DEC_COND_SECONDS * SAMPLE_RATE:
            return self.encode_voice(samples)
        lm = self.encode_voice(samples[:ENC_COND_SECONDS * SAMPLE_RATE])
        dec = self.encode_voice(samples[:DEC_COND_SECONDS * SAMPLE_RATE])
        return dict(dec, audio_features=lm["audio_features"])

    def embed(self, ids):
        return self.run("embed_tokens", input_ids=np.array([ids], np.int64))["inputs_embeds"]

    # Language model ---------------------------------------------------------------------------
    def generate(self, audio_features, text_ids, draws=None, max_new_tokens=MAX_NEW_TOKENS, bugs=()):
        """The model card's loop. draws: None for greedy, else a callable giving the next uniform.
        Returns dict(generated=[tokens after START, STOP included if produced], speech, steps)."""
        bugs = set(bugs)
        ids = list(text_ids) + ([START] if "feed_start" in bugs else [])
        embeds = np.concatenate([np.asarray(audio_features, np.float32), self.embed(ids)], axis=1)
        length = embeds.shape[1]
        mask = np.ones((1, length), np.int64)
        positions = np.arange(length, dtype=np.int64)[None]
        past = {n: np.zeros((1, self.heads, 0, self.head_dim), self.kv_types[n]) for n in self.past_names}
        penalised = [START]
        generated, steps = [], []
        for step in range(max_new_tokens):
            feeds = dict(inputs_embeds=embeds, attention_mask=mask, position_ids=positions, **past)
            out = self.run("language_model", **feeds)
            logits = out["logits"][0, -1].astype(np.float32)
            row_penalised = [] if "no_penalty" in bugs else penalised
            if draws is None:
                token, info = greedy(logits, row_penalised)
            else:
                token, info = sample(logits, row_penalised, draws())
            info["token"] = token
            steps.append(info)
            generated.append(token)
            penalised.append(token)
            if token == STOP:
                break
            grow = 0 if "mask_short" in bugs else 2 if "mask_long" in bugs else 1
            mask = np.concatenate([mask, np.ones((1, grow), np.int64)], axis=1)
            positions = positions[:, -1:] + (0 if "position_stuck" in bugs else 1)
            presents = [out[self.present_for[n]] for n in self.past_names]
            if "kv_layers_rotated" in bugs:
                presents = presents[2:] + presents[:2]
            if "kv_key_value_swapped" in bugs:
                presents = [presents[i ^ 1] for i in range(len(presents))]
            past = dict(zip(self.past_names, presents))
            embeds = self.embed([token])
            del out
        speech = [t for t in generated if t < SPEECH_CODES]   # tts_turbo.py: drop STOP (and any id >= 6561)
        return dict(generated=generated, speech=speech, steps=steps, prefill_length=length,
                    stopped=bool(generated) and generated[-1] == STOP)

    # Decoder ----------------------------------------------------------------------------------
    def decode(self, prompt_tokens, speech, speaker_embeddings, speaker_features, silence=True):
        tail = [SILENCE] * SILENCE_TOKENS if silence else []
        tokens = np.array([list(prompt_tokens) + list(speech) + tail], np.int64)
        out = self.run("conditional_decoder", speech_tokens=tokens, speaker_embeddings=speaker_embeddings,
                       speaker_features=speaker_features)
        return out["waveform"][0]


# -------------------------------------------------------------------------------------------------
# Streaming

def crossfade_curves(length=CROSSFADE):
    """Equal-power: fade_out = cos(pi/2 x (i+0.5)/length), fade_in = sin(...), in double."""
    t = (np.arange(length, dtype=np.float64) + 0.5) / length
    return np.cos(0.5 * np.pi * t), np.sin(0.5 * np.pi * t)


def chunk_plan(n, first=CHUNK, cap=CHUNK_CAP):
    """[(start, end, final)] of a stream of n speech tokens. Non-final chunk k holds min(first * 2^k, cap) new
    tokens and is decoded as soon as they exist; the final chunk holds the rest (fewer than the next chunk's
    size, maybe none) and the silence tokens. first == cap gives fixed chunks (the rule before 2026-11-29: 25)."""
    plan, start, size = [], 0, first
    while start + size <= n:
        plan.append((start, start + size, False))
        start, size = start + size, min(2 * size, cap)
    plan.append((start, n, True))
    return plan


def stream(model, prompt_tokens, speech, speaker_embeddings, speaker_features,
           first=CHUNK, cap=CHUNK_CAP, context=CONTEXT, crossfade=CROSSFADE):
    """Chunked decoding as generation goes, in the chunks of chunk_plan(len(speech), first, cap). Each decode gets
    prompt ++ speech[s - c : end] (s the chunk's first token, c = min(context, s)), plus the silence tokens if
    the chunk is final; its first c*960 - crossfade samples (none for s = 0) are dropped; the first `crossfade`
    kept samples (s > 0) are crossfaded with the `crossfade` samples the previous chunk held back; a non-final
    chunk holds back its last `crossfade` samples."""
    fade_out, fade_in = crossfade_curves(crossfade)
    pieces, chunks, held = [], [], None
    for k, (start, end, final) in enumerate(chunk_plan(len(speech), first, cap)):
        ctx = min(context, start)
        wav = model.decode(prompt_tokens, speech[start - ctx:end], speaker_embeddings, speaker_features, silence=final)
        drop = ctx * TOKEN_SAMPLES - (crossfade if start > 0 else 0)
        kept = wav[drop:]
        emitted = []
        if start > 0:
            mixed = (held.astype(np.float64) * fade_out + kept[:crossfade].astype(np.float64) * fade_in).astype(np.float32)
            emitted.append(mixed)
            kept = kept[crossfade:]
        if final:
            emitted.append(kept)
            held = None
        else:
            emitted.append(kept[:kept.size - crossfade])
            held = kept[kept.size - crossfade:]
        piece = np.concatenate(emitted).astype(np.float32)
        chunks.append(dict(index=k, final=final, first_token=start, end_token=end, context=ctx,
                           decoder_tokens=len(prompt_tokens) + end - start + ctx + (SILENCE_TOKENS if final else 0),
                           decoder_samples=int(wav.size), dropped=int(drop), emitted=int(piece.size)))
        pieces.append(piece)
    return np.concatenate(pieces), chunks


def crossfade_windows(n_speech, first=CHUNK, cap=CHUNK_CAP, crossfade=CROSSFADE):
    """[start, end) sample ranges of the joined stream that are crossfades: the `crossfade` samples before each
    chunk start s > 0."""
    return [[s * TOKEN_SAMPLES - crossfade, s * TOKEN_SAMPLES] for s, _, _ in chunk_plan(n_speech, first, cap) if s > 0]
