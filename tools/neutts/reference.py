"""A numpy/onnxruntime statement of NeuTTS (Nano/Air) inference control flow, over a backbone in the
standard decoder-only ONNX layout (tools/neutts/convert.py) and a NeuCodec ONNX decoder.

Written from reading neuphonic/neutts at 857bec0255f1 (neutts/neutts.py: NeuTTS.__init__ constants,
_to_phones, _apply_chat_template, _infer_torch, _infer_ggml, _infer_stream_ggml, _decode,
_linear_overlap_add; neutts/phonemizers.py: BasePhonemizer, FrenchPhonemizer) and neuphonic/neucodec
at 2454f320f143 (neucodec/model.py: NeuCodecOnnxDecoder.decode_code). No code of theirs is copied;
the choices and their sources are listed in tools/neutts/README.md.
"""
import math
import re
from pathlib import Path

import numpy as np
import onnxruntime as ort

from tools.common.splitmix import SplitMix64  # noqa: F401  (reference.SplitMix64: the draws of the sampling goldens)

# neutts.py NeuTTS.__init__
SAMPLE_RATE = 24000
MAX_CONTEXT = 2048
HOP = 480
STREAM_OVERLAP = 1
STREAM_FRAMES_PER_CHUNK = 25
STREAM_LOOKFORWARD = 5
STREAM_LOOKBACK = 50
# neutts.py _infer_torch (HF generate)
TEMPERATURE, TOP_K, MIN_NEW_TOKENS = 1.0, 50, 50

TEXT_PROMPT_START = "<|TEXT_PROMPT_START|>"
TEXT_PROMPT_END = "<|TEXT_PROMPT_END|>"
SPEECH_GENERATION_START = "<|SPEECH_GENERATION_START|>"
SPEECH_GENERATION_END = "<|SPEECH_GENERATION_END|>"
SPEECH_RE = re.compile(r"<\|speech_(\d+)\|>")
LANGUAGES = ("en-us", "de", "fr-fr", "es")


# -------------------------------------------------------------------------------------------------
# Text

_backends = {}


PHONEMIZER_OPTIONS = {"preserve_punctuation": True, "with_stress": True, "words_mismatch": "ignore",
                      "language_switch": "remove-flags"}


def phonemizer_raw(text, language="en-us"):
    """phonemizers.py: EspeakBackend(language, **PHONEMIZER_OPTIONS).phonemize([text]): the list it returns
    (usually one line; more when a mark's place runs out of chunks)."""
    from phonemizer.backend import EspeakBackend
    if language not in _backends:
        _backends[language] = EspeakBackend(language=language, **PHONEMIZER_OPTIONS)
    return _backends[language].phonemize([text])


def phonemize(text, language="en-us"):
    """phonemizer_raw(text)[0], FrenchPhonemizer's clean (drop every "-") for fr-fr, then neutts.py
    _to_phones: " ".join(phones.split())."""
    phones = phonemizer_raw(text, language)[0]
    if language == "fr-fr":
        phones = phones.replace("-", "")
    return " ".join(phones.split())


def espeak_version():
    from phonemizer.backend import EspeakBackend
    return ".".join(str(v) for v in EspeakBackend.version())


def speech_token(code):
    return f"<|speech_{int(code)}|>"


def prompt_text(ref_phones, phones, ref_codes):
    """The prompt string of _infer_ggml / _infer_stream_ggml (the torch path builds the same ids)."""
    codes = "".join(speech_token(c) for c in ref_codes)
    return (f"user: Convert the text to speech:{TEXT_PROMPT_START}{ref_phones} {phones}"
            f"{TEXT_PROMPT_END}\nassistant:{SPEECH_GENERATION_START}{codes}")


def load_tokenizer(path):
    from tokenizers import Tokenizer
    return Tokenizer.from_file(str(path))


def prompt_ids(tokenizer, ref_phones, phones, ref_codes):
    """The prompt string encoded with special tokens added (the post-processor puts BOS first)."""
    return tokenizer.encode(prompt_text(ref_phones, phones, ref_codes), add_special_tokens=True).ids


def prompt_ids_torch_path(tokenizer, ref_phones, phones, ref_codes):
    """_apply_chat_template step by step: encode the chat template (special tokens added), splice
    TEXT_PROMPT_START + ids(phones, no specials) + TEXT_PROMPT_END in place of <|TEXT_REPLACE|>, then
    cut at <|SPEECH_REPLACE|> and append SPEECH_GENERATION_START + ids(codes string, no specials)."""
    tid = tokenizer.token_to_id
    input_ids = tokenizer.encode(ref_phones + " " + phones, add_special_tokens=False).ids
    ids = tokenizer.encode("user: Convert the text to speech:<|TEXT_REPLACE|>\nassistant:<|SPEECH_REPLACE|>").ids
    i = ids.index(tid("<|TEXT_REPLACE|>"))
    ids = ids[:i] + [tid(TEXT_PROMPT_START)] + input_ids + [tid(TEXT_PROMPT_END)] + ids[i + 1:]
    j = ids.index(tid("<|SPEECH_REPLACE|>"))
    codes = tokenizer.encode("".join(speech_token(c) for c in ref_codes), add_special_tokens=False).ids
    return ids[:j] + [tid(SPEECH_GENERATION_START)] + codes


def extract_codes(text):
    """_decode: every <|speech_N|> in the generated text, in order."""
    return [int(m) for m in SPEECH_RE.findall(text)]


# -------------------------------------------------------------------------------------------------
# Sampling (HF generate as _infer_torch calls it), uniforms injected

def softmax64(values):
    values = np.asarray(values, np.float64)
    e = np.exp(values - values.max())
    return e / e.sum()


def mask_end(logits, end_id, generated_count, min_new_tokens=MIN_NEW_TOKENS):
    """MinNewTokensLengthLogitsProcessor: END -> -inf while fewer than min_new_tokens were written."""
    scores = np.array(logits, dtype=np.float32)
    if generated_count < min_new_tokens:
        scores[end_id] = -np.inf
    return scores


def greedy(scores):
    token = int(np.argmax(scores))        # first maximum: ties go to the lower id
    rest = np.delete(scores, token)
    return token, dict(margin=float(scores[token] - rest.max()))


def sample(scores, u, temperature=TEMPERATURE, top_k=TOP_K, order="probability"):
    """Temperature (1.0: unchanged), top-k keeping every score >= the k-th largest (ties kept), softmax
    in double over the kept, candidates by probability descending (ties: lower id), inverse CDF of u:
    u -= p until u < 0, else the last candidate (tools/chatterbox reference.sample's convention)."""
    s = np.asarray(scores, np.float32)
    if temperature != 1.0:
        s = (s / np.float32(temperature)).astype(np.float32)
    kth = np.partition(s, s.size - top_k)[s.size - top_k] if s.size > top_k else -np.inf
    kept = np.nonzero(s >= kth)[0]
    p = softmax64(s[kept])
    if order == "probability":
        idx = np.lexsort((kept, -p))
    else:                                   # a porting bug: candidates in id order
        idx = np.argsort(kept, kind="stable")
    token, distance = inverse_cdf(kept[idx], p[idx], u)
    return token, dict(kept=int(kept.size), u=u, boundary_distance=distance)


def inverse_cdf(cands, probs, u):
    """The token whose cumulative probability first passes u (the last one if rounding leaves u over), and
    u's distance to the nearest inner boundary (how far the draw is from choosing a neighbour)."""
    left, token = u, int(cands[-1])
    for t, pr in zip(cands, probs):
        left -= pr
        if left < 0:
            token = int(t)
            break
    edges = np.cumsum(probs)[:-1]
    return token, float(np.min(np.abs(edges - u))) if edges.size else 1.0


# -------------------------------------------------------------------------------------------------
# Backbone

def session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class Backbone:
    """The decoder-only graph; the layout is read from the session."""

    def __init__(self, onnx_path):
        self.session = session(onnx_path)
        inputs = {i.name: i for i in self.session.get_inputs()}
        self.past_names = [i.name for i in self.session.get_inputs() if i.name.startswith("past_key_values.")]
        self.layers = sum(1 for n in self.past_names if n.endswith(".key"))
        first = inputs["past_key_values.0.key"]
        self.kv_heads, self.head_dim = int(first.shape[1]), int(first.shape[3])
        self.output_names = [o.name for o in self.session.get_outputs()]
        self.present_for = {n: "present." + n[len("past_key_values."):] for n in self.past_names}

    def run(self, ids, mask, positions, past):
        feeds = dict(input_ids=np.asarray(ids, np.int64), attention_mask=np.asarray(mask, np.int64),
                     position_ids=np.asarray(positions, np.int64), **past)
        return dict(zip(self.output_names, self.session.run(None, feeds)))

    def empty_past(self):
        return {n: np.zeros((1, self.kv_heads, 0, self.head_dim), np.float32) for n in self.past_names}

    def generate(self, prompt, end_id, draws=None, max_context=MAX_CONTEXT, min_new_tokens=MIN_NEW_TOKENS,
                 bugs=(), stop_ids=None, choose=None):
        """_infer_torch's loop: prefill the prompt, then one token per call until END is written or
        the context holds max_context tokens. draws: None (greedy) or a callable giving the uniforms.
        choose: instead of sample/greedy, choose(input_ids, scores) -> (token, info) (generation_fixtures.py's
        transformers processors; input_ids: the prompt and every token written).
        Returns dict(generated=[ids, END included when written], stopped, steps=[info per step])."""
        bugs = set(bugs)
        stops = {end_id} if stop_ids is None else set(stop_ids)
        ids = np.array([prompt], np.int64)
        mask = np.ones((1, len(prompt)), np.int64)
        positions = np.arange(len(prompt), dtype=np.int64)[None]
        past = self.empty_past()
        generated, steps = [], []
        while len(prompt) + len(generated) < max_context:
            out = self.run(ids, mask, positions, past)
            logits = out["logits"][0, -1].astype(np.float32)
            scores = logits if "no_min_new_tokens" in bugs else mask_end(logits, end_id, len(generated), min_new_tokens)
            if "end_mask_after_topk" in bugs:      # top-k over the raw logits, END masked afterwards
                kth = np.partition(logits, logits.size - TOP_K)[logits.size - TOP_K]
                scores = np.where(logits >= kth, scores, -np.inf).astype(np.float32)
            if choose is not None:
                token, info = choose(list(prompt) + generated, scores)
            elif draws is None:
                token, info = greedy(scores)
            else:
                token, info = sample(scores, draws(), order="id" if "sample_id_order" in bugs else "probability")
            info["token"] = token
            steps.append(info)
            generated.append(token)
            if token in stops:
                break
            past_len = mask.shape[1]
            grow = 0 if "mask_short" in bugs else 2 if "mask_long" in bugs else 1
            mask = np.ones((1, past_len + grow), np.int64)
            if "mask_first_zero" in bugs:
                mask[0, 0] = 0
            positions = np.array([[past_len + (1 if "position_plus_one" in bugs else 0)]], np.int64)
            if "position_stuck" in bugs:
                positions = np.array([[len(prompt) - 1]], np.int64)
            presents = [out[self.present_for[n]] for n in self.past_names]
            if "kv_layers_rotated" in bugs:
                presents = presents[2:] + presents[:2]
            if "kv_key_value_swapped" in bugs:
                presents = [presents[i ^ 1] for i in range(len(presents))]
            past = dict(zip(self.past_names, presents))
            ids = np.array([[token]], np.int64)
        return dict(generated=generated, stopped=bool(generated) and generated[-1] == end_id, steps=steps)


# -------------------------------------------------------------------------------------------------
# Codec

class Codec:
    """NeuCodecOnnxDecoder.decode_code: codes int32 [1,1,F] -> the graph's first output; [0,0,:]."""

    def __init__(self, onnx_path):
        self.session = session(onnx_path)

    def decode(self, codes):
        codes = np.asarray(codes, np.int32).reshape(1, 1, -1)
        return self.session.run(None, {"codes": codes})[0][0, 0, :]

    def decode_text(self, text):
        """neutts.py _decode: regex over the text; no code -> error."""
        codes = extract_codes(text)
        if not codes:
            raise ValueError("No valid speech tokens found in the output.")
        return self.decode(codes)


# -------------------------------------------------------------------------------------------------
# Streaming (_infer_stream_ggml over per-token text items)

def linear_overlap_add(frames, stride, power=1.0):
    """neutts.py _linear_overlap_add (after encodec): triangular weights over each frame, f32."""
    dtype = frames[0].dtype
    total = max(stride * i + f.shape[-1] for i, f in enumerate(frames))
    weight_sum = np.zeros(total, dtype=dtype)
    out = np.zeros(total, dtype=dtype)
    offset = 0
    for frame in frames:
        n = frame.shape[-1]
        t = np.linspace(0, 1, n + 2, dtype=dtype)[1:-1]
        weight = (0.5 - np.abs(t - 0.5)) ** power
        out[offset:offset + n] += weight * frame
        weight_sum[offset:offset + n] += weight
        offset += stride
    assert weight_sum.min() > 0
    return out / weight_sum


def stream(codec, ref_codes, items, frames_per_chunk=STREAM_FRAMES_PER_CHUNK, lookforward=STREAM_LOOKFORWARD,
           lookback=STREAM_LOOKBACK, overlap=STREAM_OVERLAP, hop=HOP):
    """The authors' streaming arithmetic. items: the text of each generated token before END, one
    item per token. The token cache starts with the reference codes, so the first chunks look back into
    the reference. Returns (pieces yielded, chunk records)."""
    stride = frames_per_chunk * hop
    cache = [speech_token(c) for c in ref_codes]
    decoded_tokens, decoded_samples = len(ref_codes), 0
    frames, pieces, records = [], [], []
    for item in items:
        cache.append(item)
        if len(cache) - decoded_tokens >= frames_per_chunk + lookforward:
            start = max(decoded_tokens - lookback - overlap, 0)
            end = decoded_tokens + frames_per_chunk + lookforward + overlap
            s0 = (decoded_tokens - start) * hop
            s1 = s0 + (frames_per_chunk + 2 * overlap) * hop
            wav = codec.decode_text("".join(cache[start:end]))
            frames.append(wav[s0:s1])
            joined = linear_overlap_add(frames, stride)
            new_end = len(frames) * stride
            pieces.append(joined[decoded_samples:new_end])
            records.append(dict(final=False, cache_length=len(cache), token_start=start, token_end=min(end, len(cache)),
                                decoded_samples=int(wav.size), sample_start=s0, sample_end=s1,
                                frame_samples=int(frames[-1].size), emitted=int(pieces[-1].size)))
            decoded_samples = new_end
            decoded_tokens += frames_per_chunk
    remaining = len(cache) - decoded_tokens
    if remaining > 0:
        start = max(len(cache) - (lookback + overlap + remaining), 0)
        s0 = (len(cache) - start - remaining - overlap) * hop
        wav = codec.decode_text("".join(cache[start:]))
        frames.append(wav[s0:])
        joined = linear_overlap_add(frames, stride)
        pieces.append(joined[decoded_samples:])
        records.append(dict(final=True, cache_length=len(cache), token_start=start, token_end=len(cache),
                            decoded_samples=int(wav.size), sample_start=s0, sample_end=int(wav.size),
                            frame_samples=int(frames[-1].size), emitted=int(pieces[-1].size)))
    return pieces, records


# -------------------------------------------------------------------------------------------------
# Long text: Warble's chunking (the reference has none)

SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")


def plan_chunks(tokenizer, text, ref_phones, ref_codes, language="en-us", max_context=MAX_CONTEXT, factor=1.5):
    """Not the authors' (they send the whole text and stop at max_context). Warble's rule: split at
    sentence ends (whitespace after . ! ?), then pack whole sentences greedily, in order, while
    prompt_len(chunk) + ceil(factor * n_phone_ids(chunk) * len(ref_codes) / n_phone_ids(ref)) <= max_context.
    A sentence that alone does not fit is its own chunk. n_phone_ids counts the ids of the phoneme
    string without special tokens."""
    ref_n = len(tokenizer.encode(ref_phones, add_special_tokens=False).ids)
    sentences = [s for s in SENTENCE_RE.split(text.strip()) if s]

    def fits(chunk):
        phones = phonemize(chunk, language)
        n = len(tokenizer.encode(phones, add_special_tokens=False).ids)
        estimate = math.ceil(factor * n * len(ref_codes) / ref_n)
        return len(prompt_ids(tokenizer, ref_phones, phones, ref_codes)) + estimate <= max_context

    chunks = []
    for sentence in sentences:
        if chunks and fits(chunks[-1] + " " + sentence):
            chunks[-1] = chunks[-1] + " " + sentence
        else:
            chunks.append(sentence)
    return chunks


def token_text(tokenizer, token_id):
    return tokenizer.decode([token_id], skip_special_tokens=False)


def generated_text(tokenizer, ids):
    """_infer_torch: tokenizer.decode(generated ids) with special tokens kept."""
    return tokenizer.decode(list(ids), skip_special_tokens=False)


def repo_paths(repo):
    repo = Path(repo)
    return repo / "tokenizer.json", repo / "onnx" / "model.onnx"
