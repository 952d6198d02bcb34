"""Synthetic Chatterbox Turbo graphs: the ONNX export's names, dtypes and shapes at toy cost.

Four graphs, as in ResembleAI/chatterbox-turbo-ONNX's onnx/ folder: speech_encoder, embed_tokens,
language_model, conditional_decoder. `half=True` makes the q4f16-style variant: weights stored as f16
(cast to f32 inside), the language model's KV cache (past/present) and its logits f16; every other
input and output stays f32. The language model is deliberately NOT the real size (3 layers, 4 heads,
head_dim 16, width 64) so that a port must read the layout from the `past_key_values.{i}.*` inputs.
What each graph computes, and why, is in tools/chatterbox/README.md.
"""
import numpy as np

from tools.common import onnx_graph
from tools.common.onnx_graph import F16, F32, I64  # noqa: F401  (the graphs' dtypes, read by bench_graphs.py)

# Toy language-model layout (the real Turbo: 24 layers, 16 heads, head_dim 64, width 1024).
LAYERS, HEADS, HEAD_DIM = 3, 4, 16
WIDTH = HEADS * HEAD_DIM
FREE = WIDTH - 4                 # channels 0..59 carry content; 60..63 are flags
CH_MARK, CH_COND = WIDTH - 2, WIDTH - 1
SPEECH_CODES = 6561              # speech tokens 0..6560
START, STOP, SILENCE = 6561, 6562, 4299
VOCAB = 6563                     # logits width
EMBED_ROWS = 1031                # embed_tokens: row = id mod 1031
STOP_RATIO = 3                   # an utterance has STOP_RATIO x (text tokens) speech tokens
SAMPLE_RATE, TOKEN_SAMPLES = 24000, 960
ENC_SECONDS, DEC_SECONDS = 15, 10  # tts_turbo.py ENC_COND_LEN (T3 prompt), DEC_COND_LEN (S3Gen prompt)
SPK_DIM, MEL = 192, 80


class Graph(onnx_graph.Graph):
    producer = "warble-chatterbox-fixtures"


# ---------------------------------------------------------------------------------------------
# embed_tokens: input_ids i64 [B,S] -> inputs_embeds f32 [B,S,64]

def embed_table():
    rng = np.random.default_rng(101)
    table = np.zeros((EMBED_ROWS, WIDTH), np.float32)
    table[:, :FREE] = rng.normal(0, 1, (EMBED_ROWS, FREE))
    return table


def embed_tokens(half, marker_id):
    """Row `id mod 1031` of one table for every id (text ids and speech ids alike: the toy cannot
    tell them apart, and the port feeds it exactly what the model card's example feeds it); channel 62
    is 1 for `marker_id` (the toy tokenizer's "~", which makes the language model never stop)."""
    g = Graph("embed_tokens", half)
    ids = g.input("input_ids", I64, ["batch_size", "sequence_length"])
    rows = g.op("Gather", [g.weight(embed_table()), g.op("Mod", [ids, g.i64(EMBED_ROWS)])], axis=0)
    is_marker = g.op("Cast", [g.op("Equal", [ids, g.i64(marker_id)])], to=F32)
    onehot = np.zeros(WIDTH, np.float32)
    onehot[CH_MARK] = 1
    mark = g.op("Mul", [g.op("Unsqueeze", [is_marker, g.ints([2])]), g.const(onehot)])
    g.op("Add", [rows, mark], outputs=["inputs_embeds"])
    g.output("inputs_embeds", F32, ["batch_size", "sequence_length", WIDTH])
    return g.model()


# ---------------------------------------------------------------------------------------------
# speech_encoder: audio_values f32 [B,N] (24 kHz) -> audio_features [B,S,64], audio_tokens i64 [B,A],
# speaker_embeddings [B,192], speaker_features [B,2A,80]

def encoder_weights():
    rng = np.random.default_rng(201)
    return dict(
        proj=rng.normal(0, 1.3 / np.sqrt(TOKEN_SAMPLES), (TOKEN_SAMPLES, 8)).astype(np.float32),
        digit_a=rng.normal(0, 0.6, (8, FREE)).astype(np.float32),
        digit_b=rng.normal(0, 0.6, (8, FREE)).astype(np.float32),
        spk_in=rng.normal(0, 1 / np.sqrt(TOKEN_SAMPLES), (TOKEN_SAMPLES, 32)).astype(np.float32),
        spk_out=rng.normal(0, 0.5, (32, SPK_DIM)).astype(np.float32),
        spk_bias=rng.normal(0, 0.1, SPK_DIM).astype(np.float32),
        spk_row=rng.normal(0, 0.15, (SPK_DIM, FREE)).astype(np.float32),
        mel=rng.normal(0, 1 / np.sqrt(TOKEN_SAMPLES // 2), (TOKEN_SAMPLES // 2, MEL)).astype(np.float32),
    )


def speech_encoder(half):
    w = encoder_weights()
    g = Graph("speech_encoder", half)
    x = g.input("audio_values", F32, ["batch_size", "num_samples"])
    n = g.dim(x, 1)
    # Level-free copy for tokens and embeddings: divided by the clip's RMS.
    rms = g.op("Sqrt", [g.op("Add", [g.op("ReduceMean", [g.op("Mul", [x, x])], axes=[1], keepdims=1), g.scalar(1e-8)])])
    xn = g.op("Div", [x, rms])
    tok = g.i64(TOKEN_SAMPLES)

    def frames(signal, seconds, size):
        """signal[:, :k*size] as [B, k, size], k = min(N, seconds*24000) // size."""
        count = g.op("Div", [g.op("Min", [n, g.ints([seconds * SAMPLE_RATE])]), g.i64(size)])
        cut = g.op("Slice", [signal, g.ints([0]), g.op("Mul", [count, g.i64(size)]), g.ints([1])])
        return g.op("Reshape", [cut, g.op("Concat", [g.ints([0]), count, g.ints([size])], axis=0)]), count

    f15, _ = frames(xn, ENC_SECONDS, TOKEN_SAMPLES)                   # [B, n15, 960]
    y = g.op("MatMul", [f15, g.weight(w["proj"])])                    # [B, n15, 8]
    digits = g.op("Clip", [g.op("Round", [y]), g.scalar(-1.0), g.scalar(1.0)])  # -1/0/1
    powers = (3.0 ** np.arange(8)).astype(np.float32)
    code = g.op("MatMul", [g.op("Add", [digits, g.scalar(1.0)]), g.const(powers)])  # [B, n15] in 0..6560
    tokens15 = g.op("Cast", [code], to=I64)
    n10 = g.op("Div", [g.op("Min", [n, g.ints([DEC_SECONDS * SAMPLE_RATE])]), tok])
    g.op("Slice", [tokens15, g.ints([0]), n10, g.ints([1])], outputs=["audio_tokens"])

    # Speaker embedding (CAMPPlus stand-in): mean |projection| of the level-free frames.
    pooled = g.op("ReduceMean", [g.op("Abs", [g.op("MatMul", [f15, g.weight(w["spk_in"])])])], axes=[1], keepdims=0)
    g.op("Add", [g.op("MatMul", [pooled, g.weight(w["spk_out"])]), g.weight(w["spk_bias"])], outputs=["speaker_embeddings"])

    # T3 conditioning: [speaker row] ++ [one row per prompt token], channel 63 = 1 on every row.
    flag = np.zeros(WIDTH, np.float32)
    flag[CH_COND] = 1
    pad = g.ints([0, 0, 0, 0, 0, WIDTH - FREE])
    token_rows = g.op("Add", [g.op("MatMul", [digits, g.weight(w["digit_a"])]),
                              g.op("MatMul", [g.op("Mul", [digits, digits]), g.weight(w["digit_b"])])])
    token_rows = g.op("Pad", [g.op("Tanh", [token_rows]), pad])
    spk_row = g.op("Tanh", [g.op("MatMul", [g.op("Unsqueeze", ["speaker_embeddings", g.ints([1])]), g.weight(w["spk_row"])])])
    spk_row = g.op("Pad", [spk_row, pad])
    g.op("Add", [g.op("Concat", [spk_row, token_rows], axis=1), g.const(flag)], outputs=["audio_features"])

    # Prompt features (the S3Gen prompt mel stand-in): 2 frames of 480 samples per prompt token, NOT
    # level-free (log energy of a projection), so loudness normalisation shows in the audio.
    f10, _ = frames(x, DEC_SECONDS, TOKEN_SAMPLES // 2)
    # keep an even number of frames: 2 per prompt token
    f10 = g.op("Slice", [f10, g.ints([0]), g.op("Mul", [n10, g.i64(2)]), g.ints([1])])
    z = g.op("MatMul", [f10, g.weight(w["mel"])])
    g.op("Log", [g.op("Add", [g.op("Mul", [z, z]), g.scalar(1e-5)])], outputs=["speaker_features"])

    g.output("audio_features", F32, ["batch_size", "feature_length", WIDTH])
    g.output("audio_tokens", I64, ["batch_size", "prompt_token_length"])
    g.output("speaker_embeddings", F32, ["batch_size", SPK_DIM])
    g.output("speaker_features", F32, ["batch_size", "prompt_feature_length", MEL])
    return g.model()


# ---------------------------------------------------------------------------------------------
# language_model: inputs_embeds [B,S,64], attention_mask i64 [B,T], position_ids i64 [B,S],
# past_key_values.{i}.key/.value [B,4,P,16] -> logits [B,S,6563], present.{i}.key/.value [B,4,T,16]

def lm_weights():
    rng = np.random.default_rng(301)
    d = HEAD_DIM
    w = dict(layers=[])
    for layer in range(LAYERS):
        wq = rng.normal(0, 1.2 / np.sqrt(WIDTH), (WIDTH, WIDTH)).astype(np.float32)
        wk = rng.normal(0, 1.2 / np.sqrt(WIDTH), (WIDTH, WIDTH)).astype(np.float32)
        wv = rng.normal(0, 1.0 / np.sqrt(WIDTH), (WIDTH, WIDTH)).astype(np.float32)
        wo = rng.normal(0, 1.0 / np.sqrt(WIDTH), (WIDTH, WIDTH)).astype(np.float32)
        for h in range(HEADS):
            wq[:, h * d + d - 2:h * d + d] = 0   # queries ignore the two bookkeeping key channels
            wo[h * d + d - 4:h * d + d, :] = 0   # the four bookkeeping value channels do not feed back
        gamma = rng.uniform(0.8, 1.2, WIDTH).astype(np.float32)
        beta = rng.normal(0, 0.05, WIDTH).astype(np.float32)
        w["layers"].append(dict(q=wq, k=wk, v=wv, o=wo, gamma=gamma, beta=beta))
    w["gamma"] = rng.uniform(0.8, 1.2, WIDTH).astype(np.float32)
    w["beta"] = rng.normal(0, 0.05, WIDTH).astype(np.float32)
    w["down"] = rng.normal(0, 1.5 / np.sqrt(WIDTH), (WIDTH, 16)).astype(np.float32)
    w["sharp"] = rng.normal(0, 1.5 / np.sqrt(WIDTH), (WIDTH, 1)).astype(np.float32)
    w["head"] = rng.normal(0, 1.0, (16, SPEECH_CODES)).astype(np.float32) / 2.0
    w["bias"] = rng.normal(0, 0.3, SPEECH_CODES).astype(np.float32)
    w["freq"] = (1.0 / (10.0 ** (np.arange(FREE) / FREE * 3.0))).astype(np.float32)   # 1 .. 1/1000 rad per position
    w["phase"] = rng.uniform(0, 2 * np.pi, FREE).astype(np.float32)
    scramble = rng.normal(0, 100, VOCAB).astype(np.float32)
    scramble[STOP] = 0
    w["scramble"] = scramble
    return w


def key_signature(layer, head):
    return float(layer * HEADS + head + 1)


def language_model(half, stop_ratio=STOP_RATIO):
    w = lm_weights()
    kv_type = F16 if half else F32
    d = HEAD_DIM
    g = Graph("language_model", half)
    emb = g.input("inputs_embeds", F32, ["batch_size", "sequence_length", WIDTH])
    mask = g.input("attention_mask", I64, ["batch_size", "total_sequence_length"])
    pos = g.input("position_ids", I64, ["batch_size", "sequence_length"])
    pasts = []
    for layer in range(LAYERS):
        for kind in ("key", "value"):
            pasts.append(g.input(f"past_key_values.{layer}.{kind}", kv_type,
                                 ["batch_size", HEADS, "past_sequence_length", HEAD_DIM]))
    one = g.scalar(1.0)

    # Sizes: S (this call), P (cached), T = P + S.
    s_len = g.dim(emb, 1)
    p_len = g.dim(pasts[0], 2)
    t_len = g.op("Add", [s_len, p_len])
    prefill = g.op("Cast", [g.op("Greater", [s_len, g.ints([1])])], to=F32)  # [1]: 1 when S > 1

    def channel(tensor, c):  # tensor[..., c] (keeps the axis)
        return g.op("Slice", [tensor, g.ints([c]), g.ints([c + 1]), g.ints([-1])])

    cond = channel(emb, CH_COND)   # [B,S,1]
    mark = channel(emb, CH_MARK)
    keep = np.zeros(WIDTH, np.float32)
    keep[:FREE] = 1
    pos_f = g.op("Unsqueeze", [g.op("Cast", [pos], to=F32), g.ints([2])])   # [B,S,1]
    angle = g.op("Add", [g.op("Mul", [pos_f, g.const(w["freq"])]), g.const(w["phase"])])
    pe = g.op("Pad", [g.op("Mul", [g.op("Sin", [angle]), g.scalar(0.5)]), g.ints([0, 0, 0, 0, 0, WIDTH - FREE])])
    x = g.op("Add", [g.op("Mul", [emb, g.const(keep)]), pe])

    # Mask: the given mask, zero-padded or cut to T; its sum is checked against T separately.
    mask_f = g.op("Cast", [mask], to=F32)
    mask_sum = g.op("ReduceSum", [mask_f, g.ints([1])], keepdims=1)   # [B,1]
    mask_t = g.op("Slice", [g.op("Pad", [mask_f, g.op("Concat", [g.ints([0, 0, 0]), t_len], axis=0)]),
                            g.ints([0]), t_len, g.ints([1])])           # [B,T]
    slots = g.op("Range", [g.i64(0), g.op("Squeeze", [t_len, g.ints([0])]), g.i64(1)])   # [T]
    rows = g.op("Add", [g.op("Range", [g.i64(0), g.op("Squeeze", [s_len, g.ints([0])]), g.i64(1)]), p_len])  # [S]
    later = g.op("Cast", [g.op("Greater", [g.op("Unsqueeze", [slots, g.ints([0])]),
                                           g.op("Unsqueeze", [rows, g.ints([1])])])], to=F32)   # [S,T]
    blocked = g.op("Add", [later, g.op("Unsqueeze", [g.op("Sub", [one, mask_t]), g.ints([1, 2])])])  # [B,1,S,T]
    bias = g.op("Mul", [g.op("Min", [blocked, one]), g.scalar(-1e4)])
    slots_f = g.op("Cast", [slots], to=F32)

    def onehot(c):
        v = np.zeros(d, np.float32)
        v[c] = 1
        return v

    keep_k = np.ones(d, np.float32)
    keep_k[d - 2:] = 0
    keep_v = np.ones(d, np.float32)
    keep_v[d - 4:] = 0
    row4 = lambda t: g.op("Unsqueeze", [g.op("Squeeze", [t, g.ints([2])]), g.ints([1, 3])])  # noqa: E731 [B,S,1]->[B,1,S,1]
    pos4, cond4, mark4 = row4(pos_f), row4(cond), row4(mark)
    heads = lambda t: g.op("Transpose", [g.op("Reshape", [t, g.ints([0, 0, HEADS, d])])], perm=[0, 2, 1, 3])  # noqa: E731
    checks, presents, counts = [], [], None
    for layer, lw in enumerate(w["layers"]):
        xl = g.op("LayerNormalization", [x, g.const(lw["gamma"]), g.const(lw["beta"])], axis=-1, epsilon=1e-5)
        q = heads(g.op("MatMul", [xl, g.weight(lw["q"])]))
        k = heads(g.op("MatMul", [xl, g.weight(lw["k"])]))
        v = heads(g.op("MatMul", [xl, g.weight(lw["v"])]))
        sig_k = np.array([key_signature(layer, h) for h in range(HEADS)], np.float32).reshape(1, HEADS, 1, 1)
        k = g.op("Add", [g.op("Mul", [k, g.const(keep_k)]),
                         g.op("Add", [g.op("Mul", [pos4, g.const(onehot(d - 2))]),
                                      g.op("Mul", [g.const(sig_k), g.const(onehot(d - 1))])])])
        # value bookkeeping: -signature, conditioning flag, prefill flag (S > 1), marker flag
        v_extra = g.op("Add", [g.op("Add", [g.op("Mul", [g.const(-sig_k), g.const(onehot(d - 4))]),
                                            g.op("Mul", [prefill, g.const(onehot(d - 2))])]),
                               g.op("Add", [g.op("Mul", [cond4, g.const(onehot(d - 3))]),
                                            g.op("Mul", [mark4, g.const(onehot(d - 1))])])])
        v = g.op("Add", [g.op("Mul", [v, g.const(keep_v)]), v_extra])
        if half:
            k, v = g.op("Cast", [k], to=F16), g.op("Cast", [v], to=F16)
        pk = g.op("Concat", [pasts[2 * layer], k], outputs=[f"present.{layer}.key"], axis=2)
        pv = g.op("Concat", [pasts[2 * layer + 1], v], outputs=[f"present.{layer}.value"], axis=2)
        presents += [pk, pv]
        kf = g.op("Cast", [pk], to=F32) if half else pk
        vf = g.op("Cast", [pv], to=F32) if half else pv
        scores = g.op("Add", [g.op("Div", [g.op("MatMul", [q, g.op("Transpose", [kf], perm=[0, 1, 3, 2])]), g.scalar(4.0)]), bias])
        att = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), vf])                 # [B,H,S,D]
        att = g.op("Reshape", [g.op("Transpose", [g.op("Mul", [att, g.const(keep_v)])], perm=[0, 2, 1, 3]),
                               g.ints([0, 0, WIDTH])])
        x = g.op("Add", [x, g.op("Tanh", [g.op("MatMul", [att, g.weight(lw["o"])])])])
        # Bookkeeping check: slot j holds position j and this layer's own key/value signatures.
        m4 = g.op("Unsqueeze", [mask_t, g.ints([1])])                                  # [B,1,T]
        dk = g.op("Sub", [g.op("Squeeze", [channel(kf, d - 2), g.ints([3])]), slots_f])
        sk = g.op("Sub", [g.op("Squeeze", [channel(kf, d - 1), g.ints([3])]), g.op("Squeeze", [g.const(sig_k), g.ints([3])])])
        sv = g.op("Add", [g.op("Squeeze", [channel(vf, d - 4), g.ints([3])]), g.op("Squeeze", [g.const(sig_k), g.ints([3])])])
        err = g.op("Add", [g.op("Add", [g.op("Mul", [dk, dk]), g.op("Mul", [sk, sk])]), g.op("Mul", [sv, sv])])  # [B,H,T]
        checks.append(g.op("ReduceSum", [g.op("Mul", [err, m4]), g.ints([1, 2])], keepdims=0))  # [B]
        if layer == 0:
            head0 = g.op("Slice", [vf, g.ints([0, d - 3]), g.ints([1, d]), g.ints([1, 3])])   # [B,1,T,3]
            counts = g.op("MatMul", [m4, g.op("Squeeze", [head0, g.ints([1])])])            # [B,1,3]: cond, prefill, marker
    t_f = g.op("Cast", [t_len], to=F32)
    mask_err = g.op("Sub", [g.op("Squeeze", [mask_sum, g.ints([1])]), t_f])               # [B]
    mismatch = g.op("Add", [g.op("Mul", [mask_err, mask_err]), checks[0]])
    for c in checks[1:]:
        mismatch = g.op("Add", [mismatch, c])

    # Speech logits: 15 tanh(z / 15) with z = sharpness x (16-dim code x head) + bias.
    xf = g.op("LayerNormalization", [x, g.const(w["gamma"]), g.const(w["beta"])], axis=-1, epsilon=1e-5)
    u = g.op("Tanh", [g.op("MatMul", [xf, g.weight(w["down"])])])
    sharp = g.op("Add", [g.op("Mul", [g.op("Sigmoid", [g.op("MatMul", [xf, g.weight(w["sharp"])])]), g.scalar(2.6)]), g.scalar(0.4)])
    z = g.op("Add", [g.op("Mul", [sharp, g.op("MatMul", [u, g.weight(w["head"])])]), g.weight(w["bias"])])
    speech = g.op("Mul", [g.op("Tanh", [g.op("Div", [z, g.scalar(15.0)])]), g.scalar(15.0)])   # [B,S,6561]
    # STOP after stop_ratio x text tokens: G = fed-back tokens = sum(mask) - prefill rows,
    # text = prefill rows - conditioning rows; never when the prompt holds the marker.
    c_cond = g.op("Slice", [counts, g.ints([0]), g.ints([1]), g.ints([2])])
    c_pre = g.op("Slice", [counts, g.ints([1]), g.ints([2]), g.ints([2])])
    c_mark = g.op("Slice", [counts, g.ints([2]), g.ints([3]), g.ints([2])])
    fed = g.op("Sub", [g.op("Unsqueeze", [mask_sum, g.ints([2])]), c_pre])
    text = g.op("Sub", [c_pre, c_cond])
    margin = g.op("Sub", [g.op("Add", [fed, one]), g.op("Mul", [text, g.scalar(float(stop_ratio))])])
    marked = g.op("Clip", [c_mark, g.scalar(0.0), one])
    stop = g.op("Sub", [g.op("Mul", [g.op("Sub", [g.op("Mul", [margin, g.scalar(60.0)]), g.scalar(30.0)]),
                                     g.op("Sub", [one, marked])]),
                        g.op("Mul", [marked, g.scalar(1e4)])])   # [B,1,1]
    zeros_col = g.op("Mul", [g.op("Slice", [speech, g.ints([0]), g.ints([1]), g.ints([2])]), g.scalar(0.0)])  # [B,S,1]
    start_col = g.op("Add", [zeros_col, g.scalar(-30.0)])
    stop_col = g.op("Add", [zeros_col, stop])
    logits = g.op("Concat", [speech, start_col, stop_col], axis=2)
    scramble = g.op("Mul", [g.op("Unsqueeze", [mismatch, g.ints([1, 2])]), g.const(w["scramble"])])
    logits = g.op("Clip", [g.op("Add", [logits, scramble]), g.scalar(-3e4), g.scalar(3e4)])
    if half:
        g.op("Cast", [logits], outputs=["logits"], to=F16)
    else:
        g.op("Identity", [logits], outputs=["logits"])
    g.output("logits", F16 if half else F32, ["batch_size", "sequence_length", VOCAB])
    for layer in range(LAYERS):
        for kind in ("key", "value"):
            g.output(f"present.{layer}.{kind}", kv_type, ["batch_size", HEADS, "total_sequence_length", HEAD_DIM])
    return g.model()


# ---------------------------------------------------------------------------------------------
# conditional_decoder: speech_tokens i64 [B,T], speaker_embeddings [B,192], speaker_features [B,F,80]
# -> waveform f32 [B, (T - F/2) * 960]

def decoder_weights():
    rng = np.random.default_rng(401)
    return dict(
        digit=rng.normal(0, 0.7, (8, 24)).astype(np.float32),
        spk=rng.normal(0, 0.1, (SPK_DIM, 24)).astype(np.float32),
        feat=rng.normal(0, 0.05, (MEL, 24)).astype(np.float32),
        conv=rng.normal(0, 0.35, (32, 24, 3)).astype(np.float32),
        conv_b=rng.normal(0, 0.1, 32).astype(np.float32),
        amp=rng.normal(0, 0.6, (32, 16)).astype(np.float32),
        quad=rng.normal(0, 0.6, (32, 16)).astype(np.float32),
        level=np.float32(0.15),
        freqs=(110.0 * 1.19 ** np.arange(16)).astype(np.float32),   # 110 Hz .. 1.5 kHz
    )


def trim_fade():
    """S3Gen's trim_fade (s3gen.py): 480 zeros, then a 480-sample raised-cosine fade-in."""
    n = SAMPLE_RATE // 50
    fade = np.zeros(2 * n, np.float32)
    fade[n:] = ((np.cos(np.linspace(np.pi, 0, n)) + 1) / 2).astype(np.float32)
    return fade


def conditional_decoder(half):
    w = decoder_weights()
    g = Graph("conditional_decoder", half)
    tokens = g.input("speech_tokens", I64, ["batch_size", "num_speech_tokens"])
    spk = g.input("speaker_embeddings", F32, ["batch_size", SPK_DIM])
    feats = g.input("speaker_features", F32, ["batch_size", "feature_dim", MEL])
    powers = (3 ** np.arange(8)).astype(np.int64)
    t3 = g.op("Unsqueeze", [g.op("Mod", [tokens, g.i64(SPEECH_CODES)]), g.ints([2])])
    digits = g.op("Sub", [g.op("Cast", [g.op("Mod", [g.op("Div", [t3, g.const(powers)]), g.i64(3)])], to=F32), g.scalar(1.0)])
    level = g.op("ReduceMean", [feats], axes=[1, 2], keepdims=0)                       # [B]
    e = g.op("Add", [g.op("MatMul", [digits, g.weight(w["digit"])]),
                     g.op("Unsqueeze", [g.op("Add", [g.op("MatMul", [spk, g.weight(w["spk"])]),
                                                     g.op("MatMul", [g.op("ReduceMean", [feats], axes=[1], keepdims=0),
                                                                     g.weight(w["feat"])])]), g.ints([1])])])
    # causal conv over tokens: token t sees tokens t-2, t-1, t
    et = g.op("Pad", [g.op("Transpose", [e], perm=[0, 2, 1]), g.ints([0, 0, 2, 0, 0, 0])])
    h = g.op("Tanh", [g.op("Conv", [et, g.weight(w["conv"]), g.weight(w["conv_b"])])])
    h = g.op("Transpose", [h], perm=[0, 2, 1])                                        # [B,T,32]
    gain = g.op("Unsqueeze", [g.op("Mul", [g.op("Exp", [g.op("Mul", [g.op("Add", [level, g.scalar(6.0)]), g.scalar(0.25)])]),
                                           g.scalar(float(w["level"]))]), g.ints([1, 2])])   # level-dependent
    a = g.op("Mul", [g.op("Tanh", [g.op("MatMul", [h, g.weight(w["amp"])])]), gain])
    b = g.op("Mul", [g.op("Tanh", [g.op("MatMul", [h, g.weight(w["quad"])])]), gain])
    j = g.op("Cast", [g.op("Range", [g.i64(0), g.i64(TOKEN_SAMPLES), g.i64(1)])], to=F32)    # [960]
    omega = g.op("Unsqueeze", [g.const((2 * np.pi * w["freqs"] / SAMPLE_RATE).astype(np.float32)), g.ints([1])])  # [16,1]
    arg = g.op("Mul", [omega, g.op("Unsqueeze", [j, g.ints([0])])])                   # [16,960]
    frames = g.op("Add", [g.op("MatMul", [a, g.op("Sin", [arg])]), g.op("MatMul", [b, g.op("Cos", [arg])])])  # [B,T,960]
    prompt = g.op("Div", [g.dim(feats, 1), g.i64(2)])                                 # F/2 prompt tokens
    frames = g.op("Slice", [frames, prompt, g.ints([2 ** 62]), g.ints([1])])
    wav = g.op("Reshape", [frames, g.ints([0, -1])])
    head = g.op("Mul", [g.op("Slice", [wav, g.ints([0]), g.ints([2 * (SAMPLE_RATE // 50)]), g.ints([1])]), g.const(trim_fade())])
    tail = g.op("Slice", [wav, g.ints([2 * (SAMPLE_RATE // 50)]), g.ints([2 ** 62]), g.ints([1])])
    g.op("Concat", [head, tail], outputs=["waveform"], axis=1)
    g.output("waveform", F32, ["batch_size", "num_samples"])
    return g.model()


def all_models(marker_id):
    """{path inside the repo: model} for both variants."""
    models = {}
    for suffix, half in (("", False), ("_q4f16", True)):
        models[f"onnx/speech_encoder{suffix}.onnx"] = speech_encoder(half)
        models[f"onnx/embed_tokens{suffix}.onnx"] = embed_tokens(half, marker_id)
        models[f"onnx/language_model{suffix}.onnx"] = language_model(half)
        models[f"onnx/conditional_decoder{suffix}.onnx"] = conditional_decoder(half)
    return models
