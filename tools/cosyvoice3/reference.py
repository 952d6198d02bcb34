"""A numpy/onnxruntime re-statement of the CosyVoice 3 authors' inference control flow.

Written from reading FunAudioLLM/CosyVoice (cosyvoice/llm/llm.py, cosyvoice/utils/common.py,
cosyvoice/flow/flow.py, flow_matching.py, cosyvoice/hifigan/generator.py, cosyvoice/cli/model.py,
cosyvoice/cli/frontend.py); no code of theirs is copied. The sampler mirrors Warble's Swift
RepetitionAwareSampler / TokenSampler / LogitMath / SplitMix64 step for step, so that the same seed
gives the same tokens. Works on any model directory with the community export's file names.
"""
from pathlib import Path

import numpy as np
import onnxruntime as ort

from tools.common.splitmix import SplitMix64  # noqa: F401  (reference.SplitMix64: the draws of the sampling goldens)

SPEECH = 6561
SOS, EOS, TASK_ID = 6561, 6562, 6563
SILENT = {1, 2, 28, 29, 55, 248, 494, 2241, 2242, 2322, 2323}
MAX_SILENT = 5
ENDOFPROMPT = 151646
TOP_P, TOP_K, WINDOW, TAU_R = 0.8, 25, 10, 0.1
PRE_LOOKAHEAD = 3          # flow.pre_lookahead_len (cosyvoice3.yaml, flow:)
TOKEN_MEL_RATIO = 2
HOP, MAX_HOP, SCALE = 25, 100, 2   # CosyVoice3Model: token_hop_len, token_max_hop_len, stream_scale_factor
CFG_RATE = 0.7
STEPS = 10
SAMPLES_PER_FRAME = 480
F0_LOOKAHEAD, CONV_PRE_LOOKAHEAD = 3, 4  # f0_predictor condnet[0] causal padding; conv_pre_look_right
AUDIO_LIMIT = 0.99
N_FFT, STFT_HOP = 16, 4


# ---------------------------------------------------------------------------------------------
# Sampling: Swift's SplitMix64, LogitMath.logSoftmax, TokenSampler.candidates/draw, RAS.

def _exp_nonpositive(x):
    """CVectorMath's float exp for x <= 0 (polynomial, f32 throughout)."""
    f = np.float32
    x = np.asarray(x, dtype=np.float32)
    c = np.maximum(x, f(-87.0))
    t = c * f(1.44269504) + f(12582912.0)
    n = t - f(12582912.0)
    r = c - n * f(0.693359375) + n * f(2.12194440e-4)
    p = f(1.9875691500e-4)
    p = p * r + f(1.3981999507e-3)
    p = p * r + f(8.3334519073e-3)
    p = p * r + f(4.1665795894e-2)
    p = p * r + f(1.6666665459e-1)
    p = p * r + f(5.0000001201e-1)
    y = p * (r * r) + r + f(1.0)
    bits = ((t.view(np.int32).astype(np.int64) - 0x4B400000 + 127) << 23).astype(np.int64)
    scale = (bits & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    return np.where(x < f(-87.0), f(0.0), (y * scale).astype(np.float32)).astype(np.float32)


def log_sum_exp(values):
    """LogitMath.logSumExp: f32 max, f32 lane sums in blocks of 1,024, double total."""
    values = np.asarray(values, dtype=np.float32)
    peak = np.float32(values.max()) if values.size else np.float32(-np.inf)
    if not peak > -np.inf:
        return -np.inf
    lanes_n = 16
    full = values.size // lanes_n * lanes_n
    exps = _exp_nonpositive(values - peak)
    total = 0.0
    i = 0
    while i < full:
        end = min(i + 1024, full)
        block_rows = exps[i:end].reshape(-1, lanes_n)
        lanes = np.zeros(lanes_n, np.float32)
        for row in block_rows:
            lanes = (lanes + row).astype(np.float32)
        block = np.float32(0)
        for j in range(lanes_n):
            block = np.float32(block + lanes[j])
        total += float(block)
        i = end
    for k in range(full, values.size):
        total += float(exps[k])
    return float(peak) + float(np.log(total))


def log_softmax(values):
    values = np.asarray(values, dtype=np.float32)
    return values.astype(np.float64) - log_sum_exp(values)


def candidates(logits):
    """TokenSampler.candidates at temperature 1, no top-k/top-p: (token, probability) by
    probability, ties by lower id, renormalised."""
    logp = log_softmax(logits)
    order = np.lexsort((np.arange(logp.size), -logp))
    order = order[np.isfinite(logp[order])]
    probabilities = np.exp(logp[order])
    total = float(np.cumsum(probabilities)[-1]) if order.size else 0.0  # sequential, as Swift adds
    return list(zip(order.tolist(), (probabilities / total).tolist()))


def draw(cands, rng):
    u = rng.uniform()
    for token, p in cands:
        u -= p
        if u < 0:
            return token
    return cands[-1][0] if cands else 0


def nucleus(logits, top_p=TOP_P, top_k=TOP_K):
    kept, cumulative = [], 0.0
    for token, p in candidates(logits):
        if not (cumulative < top_p and len(kept) < top_k):
            break
        cumulative += p
        kept.append((token, p))
    return [(t, p / cumulative) for t, p in kept]


def ras_sample(logits, produced, rng, stats=None):
    """RepetitionAwareSampler.sample (Swift): the redraw is from the full distribution without the
    repeated token (the authors' ras_sampling sets its score to -inf), with a new uniform."""
    nuc = nucleus(logits)
    token = draw(nuc, rng)
    recent = sum(1 for t in produced[-WINDOW:] if t == token)
    redraw = recent >= WINDOW * TAU_R
    if stats is not None:
        stats.setdefault("nucleus_sizes", []).append(len(nuc))
        stats.setdefault("first_draws", []).append(token)
        stats.setdefault("redrawn", []).append(redraw)
    if redraw:
        others = np.array(logits, dtype=np.float32)
        others[token] = -np.inf
        rest = candidates(others)
        return draw(rest, rng) if rest else token
    return token


def silence_filter(tokens):
    """CosyVoice3Model.llm_job: after more than 5 silent tokens in a row, drop silent ones until a
    non-silent token."""
    out, run = [], 0
    for token in tokens:
        if token in SILENT:
            run += 1
            if run > MAX_SILENT:
                continue
        else:
            run = 0
        out.append(token)
    return out


# ---------------------------------------------------------------------------------------------
# Sessions over a model directory.

class Model:
    def __init__(self, directory, variant="fp32"):
        self.dir, self.variant = Path(directory), variant
        self.sessions = {}

    def session(self, name):
        if name not in self.sessions:
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1
            self.sessions[name] = ort.InferenceSession(str(self.dir / name), options,
                                                       providers=["CPUExecutionProvider"])
        return self.sessions[name]

    def run(self, name, **feeds):
        return self.session(name).run(None, feeds)

    def v(self, stem):
        if stem == "flow.decoder.estimator":
            return f"flow.decoder.estimator.{self.variant}.onnx"
        return f"{stem}_{self.variant}.onnx"

    # LLM ------------------------------------------------------------------------------------
    def speech_emb(self, ids):
        return self.run(self.v("llm_speech_embedding"), token=np.array([ids], dtype=np.int64))[0]

    def text_emb(self, ids):
        return self.run("text_embedding_fp32.onnx", input_ids=np.array([ids], dtype=np.int64))[0]

    def lm_input(self, text_ids, prompt_speech):
        parts = [self.speech_emb([SOS]), self.text_emb(text_ids), self.speech_emb([TASK_ID])]
        if prompt_speech:
            parts.append(self.speech_emb(prompt_speech))
        return np.concatenate(parts, axis=1).astype(np.float32)

    def generate(self, prompt_text_ids, tts_text_ids, prompt_speech, seed, mask_all_stops=True, stats=None):
        """Qwen2LM.inference / inference_wrapper with the Swift sampler. Returns (tokens, stop id or None,
        min_len, max_len, lm_input length)."""
        text = list(prompt_text_ids) + list(tts_text_ids)
        assert ENDOFPROMPT in text, "<|endofprompt|> missing"
        min_len, max_len = 2 * len(tts_text_ids), 20 * len(tts_text_ids)
        x = self.lm_input(text, list(prompt_speech))
        total = x.shape[1]
        hidden, kv = self.run(self.v("llm_backbone_initial"), inputs_embeds=x,
                              attention_mask=np.ones((1, total), np.float32))
        last = hidden[:, -1:, :]
        rng = SplitMix64(seed)
        out, stop = [], None
        for i in range(max_len):
            logits = self.run(self.v("llm_decoder"), hidden_state=last)[0][0].astype(np.float32)
            if i < min_len:
                logits = logits.copy()
                if mask_all_stops:
                    logits[SPEECH:] = -np.inf
                else:  # the authors' sampling_ids(ignore_eos=True) masks only index speech_token_size
                    logits[SPEECH] = -np.inf
            token = ras_sample(logits, out, rng, stats)
            if token >= SPEECH:
                stop = token
                break
            out.append(token)
            total += 1
            last, kv = self.run(self.v("llm_backbone_decode"), inputs_embeds=self.speech_emb([token]),
                                attention_mask=np.ones((1, total), np.float32), past_key_values=kv)
        return out, stop, min_len, max_len, x.shape[1]

    # Flow -----------------------------------------------------------------------------------
    def flow(self, tokens, prompt_tokens, prompt_mel, embedding, noise, finalize=True):
        """CausalMaskedDiffWithDiT.inference + CausalConditionalCFM.forward/solve_euler.
        prompt_mel [F,80]; noise [1,80,N]; returns the generated mel [1,80,frames]."""
        emb = np.asarray(embedding, np.float32).reshape(1, -1)
        emb = (emb / max(np.linalg.norm(emb), 1e-12)).astype(np.float32)
        spks = self.run(self.v("flow_speaker_projection"), embedding=emb)[0]
        tok = np.array([list(prompt_tokens) + list(tokens)], dtype=np.int64)
        e = self.run(self.v("flow_token_embedding"), token=tok)[0]
        h = self.run(self.v("flow_pre_lookahead"), token_embedded=e)[0]
        if not finalize:
            h = h[:, :-PRE_LOOKAHEAD * TOKEN_MEL_RATIO]
        mu = np.ascontiguousarray(h.transpose(0, 2, 1))
        frames = mu.shape[2]
        mel_len1 = prompt_mel.shape[0]
        cond = np.zeros((1, 80, frames), np.float32)
        cond[:, :, :mel_len1] = prompt_mel.T
        mask = np.ones((1, 1, frames), np.float32)
        x = np.ascontiguousarray(noise[:, :, :frames]).astype(np.float32)
        x = self.solve_euler(x, mask, mu, spks, cond)
        return x[:, :, mel_len1:]

    def solve_euler(self, x, mask, mu, spks, cond):
        t_span = np.linspace(0, 1, STEPS + 1, dtype=np.float32)
        t_span = (np.float32(1) - np.cos(t_span * np.float32(0.5) * np.float32(np.pi))).astype(np.float32)
        t, dt = t_span[0], np.float32(t_span[1] - t_span[0])
        zeros = np.zeros_like(mu)
        for step in range(1, STEPS + 1):
            out = self.run(self.v("flow.decoder.estimator"),
                           x=np.concatenate([x, x]), mask=np.concatenate([mask, mask]),
                           mu=np.concatenate([mu, zeros]), t=np.array([t, t], np.float32),
                           spks=np.concatenate([spks, np.zeros_like(spks)]),
                           cond=np.concatenate([cond, np.zeros_like(cond)]))[0]
            v = (np.float32(1.0 + CFG_RATE) * out[:1] - np.float32(CFG_RATE) * out[1:]).astype(np.float32)
            x = (x + dt * v).astype(np.float32)
            t = np.float32(t + dt)
            if step < STEPS:
                dt = np.float32(t_span[step + 1] - t)
        return x

    # HiFT -----------------------------------------------------------------------------------
    def hift(self, mel):
        """CausalHiFTGenerator.inference(finalize=True) with the three ONNX stages: mel [1,80,M] →
        audio [480·M] (f32), plus the magnitude before the clip (for checks)."""
        f0 = self.run("hift_f0_predictor_fp32.onnx", mel=mel)[0]
        source = self.run("hift_source_generator_fp32.onnx", f0=f0[:, None, :])[0]
        real, imag = stft(source[0, 0])
        s_stft = np.concatenate([real, imag], axis=0)[None].astype(np.float32)
        magnitude, phase = self.run("hift_decoder_fp32.onnx", mel=mel, source_stft=s_stft)
        audio = istft(np.minimum(magnitude[0], 100.0), phase[0])
        return np.clip(audio, -AUDIO_LIMIT, AUDIO_LIMIT).astype(np.float32), magnitude


def hann(n=N_FFT):
    return (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n))  # periodic


def stft(x):
    """torch.stft(n_fft 16, hop 4, win 16, periodic Hann, center=True, reflect) → real, imag [9, F]."""
    pad = N_FFT // 2
    xp = np.pad(np.asarray(x, np.float64), (pad, pad), mode="reflect")
    count = 1 + (len(xp) - N_FFT) // STFT_HOP
    idx = np.arange(N_FFT)[None, :] + STFT_HOP * np.arange(count)[:, None]
    spec = np.fft.rfft(xp[idx] * hann()[None, :], axis=1).T
    return spec.real, spec.imag


def istft(magnitude, phase):
    """torch.istft(n_fft 16, hop 4, win 16, periodic Hann, center=True): length 4·(F−1)."""
    spec = magnitude.astype(np.float64) * np.exp(1j * phase.astype(np.float64))
    frames = np.fft.irfft(spec.T, n=N_FFT, axis=1) * hann()[None, :]
    count = frames.shape[0]
    length = N_FFT + STFT_HOP * (count - 1)
    out, env = np.zeros(length), np.zeros(length)
    w2 = hann() ** 2
    for k in range(count):
        out[k * STFT_HOP:k * STFT_HOP + N_FFT] += frames[k]
        env[k * STFT_HOP:k * STFT_HOP + N_FFT] += w2
    pad = N_FFT // 2
    out, env = out[pad:length - pad], env[pad:length - pad]
    return out / np.where(env > 1e-11, env, 1.0)


# ---------------------------------------------------------------------------------------------
# Streaming: CosyVoice2Model.tts(stream=True) with CosyVoice3Model.token2wav.

def stream(model, tokens, prompt_tokens, prompt_mel, embedding, noise):
    """All tokens are known up front (the chunking depends only on counts). Non-final HiFT is the
    finalize=True graphs over the accumulated mel, cut to (M − 8)·480 samples: what the authors'
    finalize=False path returns (3 f0-lookahead frames, 4 conv_pre frames, 480 trimmed samples)."""
    hop = HOP
    pad = int(np.ceil(len(prompt_tokens) / HOP) * HOP - len(prompt_tokens))
    offset, chunks = 0, []
    mel_acc = np.zeros((1, 80, 0), np.float32)
    emitted = 0

    def emit(mel_new, finalize, used, this_hop):
        nonlocal mel_acc, emitted
        mel_acc = np.concatenate([mel_acc, mel_new], axis=2)
        audio, _ = model.hift(mel_acc)
        if not finalize:
            audio = audio[:(mel_acc.shape[2] - F0_LOOKAHEAD - CONV_PRE_LOOKAHEAD - 1) * SAMPLES_PER_FRAME]
        piece = audio[emitted:]
        chunks.append(dict(token_offset=offset, hop=this_hop, tokens_used=used, finalize=finalize,
                           mel_frames_total=int(mel_acc.shape[2]), samples=int(piece.size), audio=piece, mel=mel_new))
        emitted += piece.size

    while True:
        this_hop = hop + pad if offset == 0 else hop
        if len(tokens) - offset < this_hop + PRE_LOOKAHEAD:
            break
        used = offset + this_hop + PRE_LOOKAHEAD
        mel = model.flow(tokens[:used], prompt_tokens, prompt_mel, embedding, noise, finalize=False)
        emit(mel[:, :, offset * TOKEN_MEL_RATIO:], False, used, this_hop)
        offset += this_hop
        hop = min(MAX_HOP, hop * SCALE)
    mel = model.flow(tokens, prompt_tokens, prompt_mel, embedding, noise, finalize=True)
    emit(mel[:, :, offset * TOKEN_MEL_RATIO:], True, len(tokens), None)
    return chunks


# ---------------------------------------------------------------------------------------------
# Voice front end (CosyVoiceFrontEnd: _extract_spk_embedding, _extract_speech_token, _extract_speech_feat).

def kaldi_fbank(samples_16k):
    import kaldi_native_fbank as knf
    opts = knf.FbankOptions()
    opts.frame_opts.samp_freq = 16000
    opts.frame_opts.dither = 0.0
    opts.frame_opts.frame_shift_ms = 10.0
    opts.frame_opts.frame_length_ms = 25.0
    opts.frame_opts.window_type = "povey"
    opts.frame_opts.preemph_coeff = 0.97
    opts.frame_opts.snip_edges = True
    opts.frame_opts.remove_dc_offset = True
    opts.mel_opts.num_bins = 80
    opts.mel_opts.low_freq = 20.0
    opts.mel_opts.high_freq = 0.0
    opts.use_energy = False
    fb = knf.OnlineFbank(opts)
    fb.accept_waveform(16000, np.asarray(samples_16k, np.float32).tolist())
    fb.input_finished()
    feats = np.array([fb.get_frame(i) for i in range(fb.num_frames_ready)], np.float32)
    return (feats - feats.mean(axis=0, keepdims=True)).astype(np.float32)


def whisper_log_mel(samples_16k):
    import librosa
    x = np.asarray(samples_16k, np.float64)
    xp = np.pad(x, (200, 200), mode="reflect")
    count = 1 + (len(xp) - 400) // 160
    idx = np.arange(400)[None, :] + 160 * np.arange(count)[:, None]
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(400) / 400)
    power = np.abs(np.fft.rfft(xp[idx] * window, axis=1)) ** 2  # [frames, 201]
    power = power[:-1]
    filters = librosa.filters.mel(sr=16000, n_fft=400, n_mels=128)
    mel = filters @ power.T
    logs = np.log10(np.maximum(mel, 1e-10))
    logs = np.maximum(logs, logs.max() - 8.0)
    return ((logs + 4.0) / 4.0).astype(np.float32)  # [128, frames]


def prompt_mel(samples_24k):
    import librosa
    x = np.pad(np.asarray(samples_24k, np.float64), (720, 720), mode="reflect")
    count = 1 + (len(x) - 1920) // 480
    idx = np.arange(1920)[None, :] + 480 * np.arange(count)[:, None]
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(1920) / 1920)
    spec = np.fft.rfft(x[idx] * window, axis=1)
    mag = np.sqrt(spec.real ** 2 + spec.imag ** 2 + 1e-9)
    filters = librosa.filters.mel(sr=24000, n_fft=1920, n_mels=80, fmin=0, fmax=12000)
    mel = mag @ filters.T
    return np.log(np.maximum(mel, 1e-5)).astype(np.float32)  # [frames, 80]


def voice(model_dir, samples_16k, samples_24k, tokenizer="speech_tokenizer_v3.onnx"):
    m = Model(model_dir)
    fbank = kaldi_fbank(samples_16k)
    embedding = m.run("campplus.onnx", input=fbank[None])[0][0]
    logmel = whisper_log_mel(samples_16k)
    sess = ort.InferenceSession(str(Path(model_dir) / tokenizer) if "/" not in tokenizer else tokenizer,
                                providers=["CPUExecutionProvider"])
    tokens = sess.run(None, {"feats": logmel[None], "feats_length": np.array([logmel.shape[1]], np.int32)})[0][0]
    mel = prompt_mel(samples_24k)
    token_len = min(mel.shape[0] // 2, tokens.size)
    return dict(fbank=fbank, embedding=embedding.astype(np.float32), logmel=logmel,
                speech_tokens=[int(t) for t in tokens], mel_full=mel,
                token_len=token_len, prompt_tokens=[int(t) for t in tokens[:token_len]],
                prompt_mel=mel[:2 * token_len])
