"""Synthetic CosyVoice 3 graphs: the community export's names, dtypes and shapes at toy cost.

Each builder returns an onnx.ModelProto. `half=True` stores the weights as f16 (cast to f32 inside);
inputs and outputs stay f32, except the backbone's KV cache, which is f16 in that variant.
What each graph computes is described in tools/cosyvoice3/README.md.
"""
import numpy as np

from tools.common import onnx_graph
from tools.common.onnx_graph import F16, F32, I32, I64  # noqa: F401  (the graphs' dtypes, read by bench_graphs.py)

HIDDEN, LAYERS2, HEAD = 896, 48, 64
VOCAB_OUT = 6761
SPEECH = 6561
SILENT = [1, 2, 28, 29, 55, 248, 494, 2241, 2242, 2322, 2323]
TEXT_ROWS = 1031
# Hidden channels with exact meanings (the random parts leave them zero).
CH_SPEECH, CH_SILENT, CH_TEXT, CH_NSPEECH, CH_NTEXT, CH_MISMATCH, CH_TOTAL = 880, 881, 882, 883, 884, 885, 886
SPECIAL = slice(880, 896)
# Speech logits top out near 25 (log-sum-exp 25..28): silent ids start at 21 and get +4 after a silent input.
SILENT_BASE, SILENT_BOOST = 21.0, 4.0


class Graph(onnx_graph.Graph):
    producer = "warble-cosyvoice3-fixtures"


def text_tables():
    rng = np.random.default_rng(11)
    table = rng.normal(0, 1, (TEXT_ROWS, 16)).astype(np.float32)
    table[:, 15] = 1
    proj = rng.normal(0, 0.35, (16, HIDDEN)).astype(np.float32)
    proj[:, SPECIAL] = 0
    proj[15] = 0
    proj[15, CH_TEXT] = 1
    return table, proj


def speech_tables():
    rng = np.random.default_rng(12)
    table = rng.normal(0, 1, (VOCAB_OUT, 16)).astype(np.float32)
    table[:, 13] = 0
    table[:SPEECH, 13] = 1
    table[:, 14] = 0
    table[SILENT, 14] = 1
    table[:, 15] = 0
    proj = rng.normal(0, 0.35, (16, HIDDEN)).astype(np.float32)
    proj[:, SPECIAL] = 0
    proj[13:] = 0
    proj[13, CH_SPEECH] = 1
    proj[14, CH_SILENT] = 1
    return table, proj


def embedding(name, in_name, out_name, table, proj, rows, half):
    g = Graph(name, half)
    ids = g.input(in_name, I64, ["batch", "seq"])
    idx = g.op("Mod", [ids, g.const(np.array(rows, dtype=np.int64))])
    small = g.op("Gather", [g.weight(table), idx], axis=0)
    g.op("MatMul", [small, g.weight(proj)], outputs=[out_name])
    g.output(out_name, F32, ["batch", "seq", HIDDEN])
    return g.model()


def text_embedding():
    table, proj = text_tables()
    return embedding("text_embedding", "input_ids", "embeddings", table, proj, TEXT_ROWS, False)


def speech_embedding(half):
    table, proj = speech_tables()
    return embedding("llm_speech_embedding", "token", "embedded", table, proj, VOCAB_OUT, half)


def backbone_weights():
    rng = np.random.default_rng(21)
    p1 = rng.normal(0, 0.12, (HIDDEN, 32)).astype(np.float32)
    p1[SPECIAL] = 0
    r = rng.normal(0, 0.5, (32, 60)).astype(np.float32)
    q = rng.normal(0, 0.5, (32, HEAD)).astype(np.float32)
    q[:, 60:] = 0
    o = rng.normal(0, 0.15, (HEAD, HIDDEN)).astype(np.float32)
    o[:, SPECIAL] = 0
    scale = np.ones((LAYERS2, 2, HEAD), np.float32)
    scale[:, :, :60] = rng.uniform(0.5, 1.5, (LAYERS2, 2, 60))
    offset = np.zeros((LAYERS2, 2, HEAD), np.float32)
    offset[:, 1, :60] = rng.normal(0, 0.1, (LAYERS2, 60))
    mix = rng.normal(0, 1 / np.sqrt(LAYERS2), (LAYERS2, 1, 2, 1, HEAD)).astype(np.float32)
    select = np.zeros((5, HIDDEN), np.float32)
    for row, channel in enumerate([CH_NSPEECH, None, CH_NTEXT, None, CH_TOTAL]):
        if channel is not None:
            select[row, channel] = 1
    return dict(p1=p1, r=r, q=q, o=o, scale=scale.reshape(LAYERS2, 1, 2, 1, HEAD),
                offset=offset.reshape(LAYERS2, 1, 2, 1, HEAD), mix=mix, select=select)


def backbone(decode, half):
    """llm_backbone_initial / llm_backbone_decode (see the README)."""
    w = backbone_weights()
    kv_type = F16 if half else F32
    g = Graph("llm_backbone_decode" if decode else "llm_backbone_initial", half)
    seq = 1 if decode else "seq"
    emb = g.input("inputs_embeds", F32, ["batch", seq, HIDDEN])
    mask = g.input("attention_mask", F32, ["batch", "total" if decode else "seq"])
    if decode:
        past = g.input("past_key_values", kv_type, [LAYERS2, "batch", 2, "past", HEAD])
    one = g.scalar(1.0)
    z = g.op("Tanh", [g.op("MatMul", [emb, g.weight(w["p1"])])])
    r60 = g.op("MatMul", [z, g.weight(w["r"])])
    flags = g.op("Slice", [emb, g.ints([CH_SPEECH]), g.ints([CH_TEXT + 1]), g.ints([2])])
    if decode:
        pos = g.op("Sub", [g.op("ReduceSum", [mask, g.ints([1])], keepdims=1), one])  # [B,1]
    else:
        pos = g.op("Sub", [g.op("CumSum", [mask, g.const(np.array(1, dtype=np.int64))]), one])  # [B,S]
    pos = g.op("Unsqueeze", [g.op("Div", [pos, g.scalar(64.0)]), g.ints([2])])
    row = g.op("Concat", [r60, flags, pos], axis=2)  # [B,S,64]
    row5 = g.op("Unsqueeze", [row, g.ints([0, 2])])  # [1,B,1,S,64]
    new = g.op("Add", [g.op("Mul", [row5, g.weight(w["scale"])]), g.weight(w["offset"])])  # [48,B,2,S,64]
    if half:
        new = g.op("Cast", [new], to=F16)
    kv_name = "new_past_key_values" if decode else "past_key_values"
    if decode:
        g.op("Concat", [past, new], outputs=[kv_name], axis=3)
    else:
        g.op("Identity", [new], outputs=[kv_name])
    g.output(kv_name, kv_type, [LAYERS2, "batch", 2, "total" if decode else "seq", HEAD])
    full = g.op("Cast", [kv_name], to=F32) if half else kv_name
    mixed = g.op("ReduceSum", [g.op("Mul", [full, g.weight(w["mix"])]), g.ints([0])], keepdims=0)  # [B,2,T,64]
    keys = g.op("Gather", [mixed, g.const(np.array(0, dtype=np.int64))], axis=1)  # [B,T,64]
    values = g.op("Gather", [mixed, g.const(np.array(1, dtype=np.int64))], axis=1)
    layer0 = g.op("Gather", [g.op("Gather", [full, g.const(np.array(0, dtype=np.int64))], axis=0),
                             g.const(np.array(1, dtype=np.int64))], axis=1)  # [B,T,64]
    raw = g.op("Slice", [layer0, g.ints([60]), g.ints([64]), g.ints([2])])  # speech, silent, text, pos/64
    ones_col = g.op("Add", [g.op("Mul", [g.op("Slice", [raw, g.ints([0]), g.ints([1]), g.ints([2])]),
                                         g.scalar(0.0)]), one])
    feats = g.op("Concat", [raw, ones_col], axis=2)  # [B,T,5]
    q = g.op("MatMul", [z, g.weight(w["q"])])
    scores = g.op("Div", [g.op("MatMul", [q, g.op("Transpose", [keys], perm=[0, 2, 1])]), g.scalar(8.0)])  # [B,S,T]
    mask3 = g.op("Unsqueeze", [mask, g.ints([1])])  # [B,1,T]
    bias = g.op("Mul", [g.op("Sub", [mask3, one]), g.scalar(1e4)])
    total = g.op("Gather", [g.op("Shape", [mask]), g.const(np.array(1, dtype=np.int64))])
    slots = g.op("Range", [g.const(np.array(0, dtype=np.int64)), total, g.const(np.array(1, dtype=np.int64))])
    if decode:
        weights = mask3
    else:
        later = g.op("Cast", [g.op("Greater", [g.op("Unsqueeze", [slots, g.ints([0])]),
                                               g.op("Unsqueeze", [slots, g.ints([1])])])], to=F32)  # [S,S] j>i
        bias = g.op("Add", [bias, g.op("Mul", [later, g.scalar(-1e4)])])
        weights = g.op("Mul", [mask3, g.op("Sub", [one, later])])  # [B,S,T]
    attention = g.op("Softmax", [g.op("Add", [scores, bias])], axis=-1)
    context = g.op("MatMul", [attention, values])  # [B,S,64]
    counts = g.op("MatMul", [weights, feats])  # [B,S,5]
    slot_pos = g.op("Div", [g.op("Cast", [slots], to=F32), g.scalar(64.0)])
    pos_col = g.op("Squeeze", [g.op("Slice", [raw, g.ints([3]), g.ints([4]), g.ints([2])]), g.ints([2])])  # [B,T]
    diff = g.op("Mul", [g.op("Sub", [pos_col, slot_pos]), g.scalar(64.0)])  # in positions
    mismatch = g.op("MatMul", [weights, g.op("Unsqueeze", [g.op("Mul", [diff, diff]), g.ints([2])])])  # [B,S,1]
    special = g.op("MatMul", [counts, g.weight(w["select"])])
    mis_vec = np.zeros((1, HIDDEN), np.float32)
    mis_vec[0, CH_MISMATCH] = 1
    special = g.op("Add", [special, g.op("MatMul", [mismatch, g.weight(mis_vec)])])
    body = g.op("Mul", [g.op("Tanh", [g.op("MatMul", [context, g.weight(w["o"])])]), g.scalar(0.5)])
    g.op("Add", [g.op("Add", [emb, body]), special], outputs=["hidden_states"])
    g.output("hidden_states", F32, ["batch", seq, HIDDEN])
    g.outputs = g.outputs[-1:] + g.outputs[:-1]  # hidden_states first, as in the export
    return g.model()


def decoder_weights():
    rng = np.random.default_rng(31)
    a = rng.normal(0, 0.2, (HIDDEN, 48)).astype(np.float32)
    a[SPECIAL] = 0
    b = rng.normal(0, 1.0, (48, VOCAB_OUT)).astype(np.float32)
    b[:, SPEECH:] = 0
    b[:, SILENT] = 0
    special = np.zeros((5, VOCAB_OUT), np.float32)  # rows: silent flag, text flag, n_speech, n_text, mismatch
    special[0, SILENT] = SILENT_BOOST
    special[2, 6562] = 0.5
    special[3, 6562] = -2.0
    special[4, :SPEECH] = rng.normal(0, 100, SPEECH)
    bias = np.zeros(VOCAB_OUT, np.float32)
    bias[SILENT] = SILENT_BASE
    bias[SPEECH:] = -30.0
    bias[6562] = 5.0
    return dict(a=a, b=b, special=special, bias=bias)


def llm_decoder(half, logit_scale=1.0):
    w = decoder_weights()
    g = Graph("llm_decoder", half)
    h = g.input("hidden_state", F32, ["batch", 1, HIDDEN])
    h2 = g.op("Squeeze", [h, g.ints([1])])
    u = g.op("Tanh", [g.op("MatMul", [h2, g.weight(w["a"])])])
    speech = g.op("Mul", [g.op("MatMul", [u, g.weight(w["b"])]), g.scalar(logit_scale)])
    flags = g.op("Slice", [h2, g.ints([CH_SILENT]), g.ints([CH_MISMATCH + 1]), g.ints([1])])
    extra = g.op("MatMul", [flags, g.weight(w["special"])])
    g.op("Add", [g.op("Add", [speech, extra]), g.weight(w["bias"])], outputs=["logits"])
    g.output("logits", F32, ["batch", VOCAB_OUT])
    return g.model()


def flow_token_embedding(half):
    rng = np.random.default_rng(41)
    g = Graph("flow_token_embedding", half)
    tok = g.input("token", I64, ["batch", "seq"])
    idx = g.op("Mod", [tok, g.const(np.array(SPEECH, dtype=np.int64))])
    g.op("Gather", [g.weight(rng.normal(0, 1, (SPEECH, 80))), idx], outputs=["embedded"], axis=0)
    g.output("embedded", F32, ["batch", "seq", 80])
    return g.model()


def flow_pre_lookahead(half):
    rng = np.random.default_rng(42)
    g = Graph("flow_pre_lookahead", half)
    e = g.input("token_embedded", F32, ["batch", "seq", 80])
    et = g.op("Transpose", [e], perm=[0, 2, 1])
    padded = g.op("Pad", [et, g.ints([0, 0, 0, 0, 0, 3])], mode="constant")
    conv = g.op("Conv", [padded, g.weight(rng.normal(0, 0.1, (80, 80, 4))), g.weight(rng.normal(0, 0.1, 80))])
    h = g.op("Add", [e, g.op("Transpose", [g.op("Tanh", [conv])], perm=[0, 2, 1])])
    h4 = g.op("Unsqueeze", [h, g.ints([2])])
    g.op("Reshape", [g.op("Concat", [h4, h4], axis=2), g.ints([0, -1, 80])], outputs=["h"])
    g.output("h", F32, ["batch", "seq2", 80])
    return g.model()


def flow_speaker_projection(half):
    rng = np.random.default_rng(43)
    g = Graph("flow_speaker_projection", half)
    x = g.input("embedding", F32, ["batch", 192])
    g.op("Add", [g.op("MatMul", [x, g.weight(rng.normal(0, 0.5, (192, 80)))]), g.weight(rng.normal(0, 0.1, 80))],
         outputs=["projected"])
    g.output("projected", F32, ["batch", 80])
    return g.model()


def estimator(half):
    rng = np.random.default_rng(44)
    g = Graph("flow_decoder_estimator", half)
    x = g.input("x", F32, [2, 80, "T"])
    mask = g.input("mask", F32, [2, 1, "T"])
    mu = g.input("mu", F32, [2, 80, "T"])
    t = g.input("t", F32, [2])
    spks = g.input("spks", F32, [2, 80])
    cond = g.input("cond", F32, [2, 80, "T"])

    def conv1(v, std):
        return g.op("Conv", [v, g.weight(rng.normal(0, std, (80, 80, 1)))])

    acc = g.op("Add", [conv1(x, 0.08), conv1(mu, 0.15)])
    acc = g.op("Add", [acc, conv1(cond, 0.1)])
    acc = g.op("Add", [acc, g.op("Conv", [x, g.weight(rng.normal(0, 0.4, (80, 1, 3)))], group=80, pads=[1, 1])])
    acc = g.op("Add", [acc, g.op("Unsqueeze", [spks, g.ints([2])])])
    tcol = g.op("Unsqueeze", [t, g.ints([1, 2])])
    acc = g.op("Add", [acc, g.op("Mul", [tcol, g.weight(rng.normal(0, 1, (1, 80, 1)))])])
    body = g.op("Sub", [g.op("Tanh", [acc]), g.op("Mul", [x, g.scalar(0.5)])])
    g.op("Mul", [body, mask], outputs=["estimator_out"])
    g.output("estimator_out", F32, [2, 80, "T"])
    return g.model()


def hift_f0_predictor():
    rng = np.random.default_rng(51)
    g = Graph("hift_f0_predictor")
    mel = g.input("mel", F32, ["batch", 80, "frames"])
    padded = g.op("Pad", [mel, g.ints([0, 0, 0, 0, 0, 3])], mode="constant")
    conv = g.op("Conv", [padded, g.weight(rng.normal(0, 0.08, (1, 80, 4))), g.weight([0.0])])
    f0 = g.op("Add", [g.op("Mul", [g.op("Sigmoid", [conv]), g.scalar(220.0)]), g.scalar(80.0)])
    g.op("Squeeze", [f0, g.ints([1])], outputs=["f0"])
    g.output("f0", F32, ["batch", "frames"])
    return g.model()


def hift_source_generator():
    g = Graph("hift_source_generator")
    f0 = g.input("f0", F32, ["batch", 1, "frames"])
    up = g.op("Expand", [g.op("Unsqueeze", [f0, g.ints([3])]), g.ints([1, 1, 1, 480])])
    up = g.op("Reshape", [up, g.ints([0, 1, -1])])
    phase = g.op("CumSum", [g.op("Mul", [up, g.scalar(2 * np.pi / 24000)]), g.const(np.array(2, dtype=np.int64))])
    g.op("Mul", [g.op("Sin", [phase]), g.scalar(0.1)], outputs=["source"])
    g.output("source", F32, ["batch", 1, "samples"])
    return g.model()


def hift_decoder(mag_scale=2.5, mag_bias=-4.0):
    rng = np.random.default_rng(52)
    g = Graph("hift_decoder")
    mel = g.input("mel", F32, ["batch", 80, "frames"])
    src = g.input("source_stft", F32, ["batch", 18, "stft_frames"])
    padded = g.op("Pad", [mel, g.ints([0, 0, 0, 0, 0, 4])], mode="constant")
    bias = np.concatenate([np.full(9, mag_bias / mag_scale), np.zeros(9)]).astype(np.float32)
    conv = g.op("Conv", [padded, g.weight(rng.normal(0, 0.05, (18, 80, 5))), g.weight(bias)])
    up = g.op("Reshape", [g.op("Expand", [g.op("Unsqueeze", [conv, g.ints([3])]), g.ints([1, 1, 1, 120])]),
                          g.ints([0, 18, -1])])
    up = g.op("Pad", [up, g.ints([0, 0, 1, 0, 0, 0])], mode="reflect")  # [B,18,120M+1]
    c_mag = g.op("Slice", [up, g.ints([0]), g.ints([9]), g.ints([1])])
    c_phase = g.op("Slice", [up, g.ints([9]), g.ints([18]), g.ints([1])])
    real = g.op("Slice", [src, g.ints([0]), g.ints([9]), g.ints([1])])
    imag = g.op("Slice", [src, g.ints([9]), g.ints([18]), g.ints([1])])
    gain = g.op("Add", [g.op("Mul", [g.op("Abs", [real]), g.scalar(4.0)]), g.scalar(0.5)])
    g.op("Mul", [g.op("Exp", [g.op("Mul", [c_mag, g.scalar(mag_scale)])]), gain], outputs=["magnitude"])
    inner = g.op("Add", [c_phase, g.op("Add", [g.op("Mul", [real, g.scalar(3.0)]), g.op("Mul", [imag, g.scalar(2.0)])])])
    g.op("Mul", [g.op("Sin", [inner]), g.scalar(3.0)], outputs=["phase"])
    g.output("magnitude", F32, ["batch", 9, "stft_frames"])
    g.output("phase", F32, ["batch", 9, "stft_frames"])
    return g.model()


def campplus():
    rng = np.random.default_rng(61)
    g = Graph("campplus")
    x = g.input("input", F32, ["batch", "frames", 80])
    h = g.op("Tanh", [g.op("MatMul", [x, g.weight(rng.normal(0, 0.1, (80, 64)))])])
    pooled = g.op("ReduceMean", [h], axes=[1], keepdims=0)
    g.op("Add", [g.op("MatMul", [pooled, g.weight(rng.normal(0, 1.0, (64, 192)))]),
                 g.weight(rng.normal(0, 0.1, 192))], outputs=["output"])
    g.output("output", F32, ["batch", 192])
    return g.model()


def speech_tokenizer(index_type=I64):
    rng = np.random.default_rng(62)
    g = Graph("speech_tokenizer_v3")
    feats = g.input("feats", F32, ["batch", 128, "frames"])
    lengths = g.input("feats_length", I32, ["batch"])
    four = g.const(np.array(4, dtype=np.int64))
    groups = g.op("Div", [g.op("Gather", [g.op("Shape", [feats]), g.const(np.array(2, dtype=np.int64))]), four])
    end = g.op("Unsqueeze", [g.op("Mul", [groups, four]), g.ints([0])])
    cut = g.op("Slice", [feats, g.ints([0]), end, g.ints([2])])
    pooled = g.op("ReduceMean", [g.op("Reshape", [cut, g.ints([0, 128, -1, 4])])], axes=[3], keepdims=0)
    centred = g.op("Sub", [g.op("Transpose", [pooled], perm=[0, 2, 1]), g.scalar(0.5)])
    y = g.op("MatMul", [centred, g.weight(rng.normal(0, 0.35, (128, 8)))])
    digits = g.op("Add", [g.op("Clip", [g.op("Round", [y]), g.scalar(-1.0), g.scalar(1.0)]), g.scalar(1.0)])
    code = g.op("MatMul", [digits, g.weight((3.0 ** np.arange(8)).astype(np.float32))])  # [B,G]
    valid_groups = g.op("Div", [g.op("Cast", [lengths], to=I64), four])
    slots = g.op("Range", [g.const(np.array(0, dtype=np.int64)), groups, g.const(np.array(1, dtype=np.int64))])
    valid = g.op("Cast", [g.op("Less", [g.op("Unsqueeze", [slots, g.ints([0])]),
                                        g.op("Unsqueeze", [valid_groups, g.ints([1])])])], to=F32)
    g.op("Cast", [g.op("Mul", [code, valid])], outputs=["indices"], to=index_type)
    g.output("indices", index_type, ["batch", "groups"])
    return g.model()


def all_models():
    """{file name: model} for the repo directory (and the int32 tokenizer variant)."""
    models = {
        "campplus.onnx": campplus(),
        "speech_tokenizer_v3.onnx": speech_tokenizer(I64),
        "text_embedding_fp32.onnx": text_embedding(),
        "hift_f0_predictor_fp32.onnx": hift_f0_predictor(),
        "hift_source_generator_fp32.onnx": hift_source_generator(),
        "hift_decoder_fp32.onnx": hift_decoder(),
    }
    for variant, half in (("fp32", False), ("fp16", True)):
        models[f"llm_speech_embedding_{variant}.onnx"] = speech_embedding(half)
        models[f"llm_backbone_initial_{variant}.onnx"] = backbone(False, half)
        models[f"llm_backbone_decode_{variant}.onnx"] = backbone(True, half)
        models[f"llm_decoder_{variant}.onnx"] = llm_decoder(half)
        models[f"flow_token_embedding_{variant}.onnx"] = flow_token_embedding(half)
        models[f"flow_pre_lookahead_{variant}.onnx"] = flow_pre_lookahead(half)
        models[f"flow_speaker_projection_{variant}.onnx"] = flow_speaker_projection(half)
        models[f"flow.decoder.estimator.{variant}.onnx"] = estimator(half)
    variants = {"speech_tokenizer_v3_int32.onnx": speech_tokenizer(I32)}
    return models, variants
