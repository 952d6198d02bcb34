"""Synthetic SenseVoice Small graphs: sherpa-onnx's export (scripts/sense-voice/export-onnx.py) with its
input and output names, dtypes, dynamic axes, metadata keys and tokens.txt layout, at toy cost.

    x          f32   [N, T, 560]   LFR-stacked, CMVN-normalised Kaldi fbank (7 × 80)
    x_length   int32 [N]
    language   int32 [N]           lang_auto 0, lang_zh 3, lang_en 4, lang_yue 7, lang_ja 11, lang_ko 12
    text_norm  int32 [N]           with_itn 14, without_itn 15
    logits     f32   [N, T+4, V]   four prompt frames (language, emotion, event, ITN), then one per input frame

What it computes (random weights, seeded): h = tanh(x·W1 + b1) per frame; the frames' logits are h·W2 with the
tags pushed far down and the blank up a little (so that CTC greedy gives a few tokens a second that change with
the audio); the four prompt frames read the mean of h over time: frame 0 picks a language tag (the `language`
input's row adds a large bonus to the forced language's tag; auto adds nothing, so the audio decides), frame 1 an
emotion tag, frame 2 an event tag, frame 3 the ITN tag that `text_norm` names. `x_length` is read (the mean is
over the first x_length frames) as the real graph's mask does.
"""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]
IR_VERSION = 8
F32, I32 = TensorProto.FLOAT, TensorProto.INT32

FEATURES = 560                     # 80 mel bins × lfr_window_size 7
LANGUAGE_IDS = {"auto": 0, "zh": 3, "en": 4, "yue": 7, "ja": 11, "ko": 12, "nospeech": 13}
WITH_ITN, WITHOUT_ITN = 14, 15
LANGUAGE_TAGS = ["<|zh|>", "<|en|>", "<|yue|>", "<|ja|>", "<|ko|>", "<|nospeech|>"]
EMOTION_TAGS = ["<|HAPPY|>", "<|SAD|>", "<|ANGRY|>", "<|NEUTRAL|>", "<|FEARFUL|>", "<|DISGUSTED|>", "<|SURPRISED|>",
                "<|EMO_UNKNOWN|>"]
EVENT_TAGS = ["<|Speech|>", "<|BGM|>", "<|Laughter|>", "<|Applause|>", "<|Cry|>", "<|Sneeze|>", "<|Breath|>",
              "<|Cough|>", "<|Event_UNK|>"]
ITN_TAGS = ["<|withitn|>", "<|woitn|>"]
PIECES = ["▁the", "▁a", "s", "▁hello", "▁world", "ing", "▁speech", "▁is", "ed", "▁to", "▁of", "t", "▁and", "er",
          "▁we", "ly", "▁warble", "▁sound", ".", ",", "?", "▁I", "'", "m", "你", "好", "世", "界", "说", "话", "。",
          "こ", "ん", "に", "ち", "は", "안", "녕", "하", "세", "요", "▁", "e", "o", "n", "r"]


REAL_VOCABULARY = 25055


def tokens(size=None):
    """tokens.txt's lines in order: <unk> (the CTC blank) 0, <s> 1, </s> 2, the pieces (padded with made-up ones up
    to `size` tokens in all), then the tags."""
    tags = LANGUAGE_TAGS + EMOTION_TAGS + EVENT_TAGS + ITN_TAGS
    pieces = list(PIECES)
    if size is not None:
        pieces += [f"▁w{i}" for i in range(size - 3 - len(PIECES) - len(tags))]
    return ["<unk>", "<s>", "</s>"] + pieces + tags


def cmvn(seed=7):
    """neg_mean and inv_stddev (560 each), about the statistics of 32768-scaled 16 kHz fbank features."""
    rng = np.random.default_rng(seed)
    mean = 11.0 + rng.uniform(-1.5, 1.5, 80)
    std = 2.5 + rng.uniform(-0.5, 0.5, 80)
    return -np.tile(mean, 7).astype(np.float32), (1.0 / np.tile(std, 7)).astype(np.float32)


def metadata(vocab_size, neg_mean, inv_stddev):
    entries = {
        "lfr_window_size": "7", "lfr_window_shift": "6", "normalize_samples": "0",
        "neg_mean": ",".join(f"{v:.8g}" for v in neg_mean), "inv_stddev": ",".join(f"{v:.8g}" for v in inv_stddev),
        "model_type": "sense_voice_ctc", "version": "1", "model_author": "iic",
        "maintainer": "k2-fsa", "vocab_size": str(vocab_size),
        "comment": "iic/SenseVoiceSmall", "url": "https://huggingface.co/FunAudioLLM/SenseVoiceSmall",
        "with_itn": str(WITH_ITN), "without_itn": str(WITHOUT_ITN),
    }
    entries.update({f"lang_{name}": str(value) for name, value in LANGUAGE_IDS.items()})
    return entries


def model(hidden=24, seed=11, layers=0, vocabulary=None):
    """The ModelProto. `hidden`, `layers` and `vocabulary` size it (the benchmark makes the real size: 25055 tokens,
    hidden 2048, 43 residual layers ≈ 233 M parameters, 933 MB as f32, about the real graph's cost per frame)."""
    rng = np.random.default_rng(seed)
    vocab = tokens(vocabulary)
    V = len(vocab)
    index = {t: i for i, t in enumerate(vocab)}
    neg_mean, inv_stddev = cmvn()
    inits, nodes = [], []

    def const(name, value):
        inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(op, inputs, outputs, **attrs):
        nodes.append(helper.make_node(op, inputs, outputs, **attrs))
        return outputs[0]

    w1 = const("w1", rng.normal(0, 0.35, (FEATURES, hidden)).astype(np.float32))
    b1 = const("b1", rng.normal(0, 0.2, hidden).astype(np.float32))
    h = node("Tanh", [node("Add", [node("MatMul", ["x", w1], ["xw1"]), b1], ["xw1b"])], ["h0"])
    for layer in range(layers):  # benchmark depth: residual tanh layers
        w = const(f"wl{layer}", rng.normal(0, 1.0 / np.sqrt(hidden), (hidden, hidden)).astype(np.float32))
        h = node("Add", [h, node("Tanh", [node("MatMul", [h, w], [f"res_mm{layer}"])], [f"res_tanh{layer}"])], [f"res_h{layer + 1}"])
    tags = np.zeros(V, np.float32)
    tags[[index[t] for t in LANGUAGE_TAGS + EMOTION_TAGS + EVENT_TAGS + ITN_TAGS]] = 1
    frame_bias = -30.0 * tags
    frame_bias[0] += 3.0  # the blank
    frame_bias[1:3] -= 30.0  # <s>, </s> never come out
    w2 = const("w2", rng.normal(0, 1.0, (hidden, V)).astype(np.float32))
    frames = node("Add", [node("MatMul", [h, w2], ["hw2"]), const("frame_bias", frame_bias)], ["frame_logits"])

    # The mean of h over the first x_length frames: [N, 1, hidden].
    length_f = node("Cast", ["x_length"], ["length_f"], to=F32)
    T = node("Gather", [node("Shape", ["x"], ["x_shape"]), const("one_i64", np.array(1, np.int64))], ["T"])
    steps = node("Range", [const("zero_i64", np.array(0, np.int64)), T, const("step_i64", np.array(1, np.int64))], ["steps"])
    steps_f = node("Cast", [steps], ["steps_f"], to=F32)
    mask = node("Cast", [node("Less", [node("Unsqueeze", [steps_f, const("ax0", np.array([0], np.int64))], ["steps_row"]),
                                      node("Unsqueeze", [length_f, const("ax1", np.array([1], np.int64))], ["length_col"])],
                              ["mask_b"])], ["mask"], to=F32)                     # [N, T]
    mask3 = node("Unsqueeze", [mask, const("ax2", np.array([2], np.int64))], ["mask3"])  # [N, T, 1]
    summed = node("ReduceSum", [node("Mul", [h, mask3], ["h_masked"]), const("axes1", np.array([1], np.int64))], ["h_sum"],
                  keepdims=1)
    mean = node("Div", [summed, node("Unsqueeze", [node("Max", [length_f, const("one_f", np.array(1, np.float32))], ["len1"]),
                                                    const("ax12", np.array([1, 2], np.int64))], ["len3"])], ["h_mean"])

    def category(name, members, scale):
        bias = np.full(V, -40.0, np.float32)
        bias[[index[t] for t in members]] = 0.0
        weights = np.zeros((hidden, V), np.float32)
        weights[:, [index[t] for t in members]] = rng.normal(0, scale, (hidden, len(members)))
        return node("Add", [node("MatMul", [mean, const(f"w_{name}", weights)], [f"{name}_w"]), const(f"bias_{name}", bias)],
                    [f"{name}_logits"])

    def table(name, rows):
        values = np.zeros((16, V), np.float32)
        for row, tag in rows.items():
            values[row, index[tag]] = 60.0
        return node("Unsqueeze", [node("Gather", [const(f"table_{name}", values), name], [f"{name}_row"]),
                                  const(f"ax1_{name}", np.array([1], np.int64))], [f"{name}_bonus"])

    forced = dict(zip([LANGUAGE_IDS[c] for c in ("zh", "en", "yue", "ja", "ko", "nospeech")], LANGUAGE_TAGS))
    language = node("Add", [category("lang", LANGUAGE_TAGS, 6.0), table("language", forced)], ["lang_prompt"])
    emotion = category("emotion", EMOTION_TAGS, 6.0)
    event = category("event", EVENT_TAGS, 6.0)
    itn_bias = np.full(V, -40.0, np.float32)
    itn_bias[[index[t] for t in ITN_TAGS]] = 0.0
    itn = node("Add", [table("text_norm", {WITH_ITN: ITN_TAGS[0], WITHOUT_ITN: ITN_TAGS[1]}), const("bias_itn", itn_bias)],
               ["itn_prompt"])
    node("Concat", [language, emotion, event, itn, frames], ["logits"], axis=1)

    graph = helper.make_graph(
        nodes, "sense_voice", [
            helper.make_tensor_value_info("x", F32, ["N", "T", FEATURES]),
            helper.make_tensor_value_info("x_length", I32, ["N"]),
            helper.make_tensor_value_info("language", I32, ["N"]),
            helper.make_tensor_value_info("text_norm", I32, ["N"]),
        ], [helper.make_tensor_value_info("logits", F32, ["N", "T_out", V])], inits)
    proto = helper.make_model(graph, opset_imports=OPSET, producer_name="warble-tools-sensevoice")
    proto.ir_version = IR_VERSION
    helper.set_model_props(proto, metadata(V, neg_mean, inv_stddev))
    return proto


def write_tokens(path, size=None):
    with open(path, "w", encoding="utf-8") as f:
        for i, token in enumerate(tokens(size)):
            f.write(f"{token} {i}\n")
