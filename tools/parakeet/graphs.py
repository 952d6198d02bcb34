"""Synthetic Parakeet TDT graphs: sherpa-onnx's export of NVIDIA's NeMo transducer with durations
(scripts/nemo/parakeet-tdt-0.6b-v3/export_onnx.py) with its input and output names, dtypes, dynamic axes,
the encoder's metadata and the tokens.txt layout, at toy cost.

    encoder.onnx (+ encoder.weights, its external data)
      audio_signal     f32   [B, 128, T]     per-feature normalised log mel (NeMo's front end)
      length           int64 [B]
      outputs          f32   [B, D, ceil(T/8)]
      encoded_lengths  int64 [B]
    decoder.onnx (the prediction network: embedding, 2-layer LSTM)
      targets int32 [B, U], target_length int32 [B], states.1 f32 [L, B, H], onnx::Slice_3 f32 [L, 1, H]
      → outputs f32 [B, H, U], prednet_lengths int32 [B], states f32 [L, B, H], 162 f32 [L, B, H]
    joiner.onnx
      encoder_outputs f32 [B, D, T], decoder_outputs f32 [B, H, U] → outputs f32 [B, T, U, V + 1 + 5]
      (V + 1 token logits, the blank last; then the logits of durations 0–4 frames)

Metadata on the encoder only, every value a string: vocab_size (V, without the blank), normalize_type
per_feature, pred_rnn_layers, pred_hidden, subsampling_factor 8, model_type EncDecRNNTBPEModel, version,
model_author, url (containing "tdt": how sherpa-onnx tells TDT from plain RNN-T), comment, feat_dim 128.

What it computes (random weights, seeded): the encoder is a strided convolution (kernel 8, stride 8, padded at
the end so that T' = ceil(T/8)) and tanh; the decoder embeds the previous token (the blank's row is zero, as NeMo's
blank-as-pad embedding) and runs two LSTM layers from the states; the joiner adds the two projections, ReLU, and a
linear layer to the token and duration logits, biased so that blanks, repeated tokens on one frame (duration 0)
and skips of several frames all occur on speech-like audio.
"""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]
IR_VERSION = 8
F32, I32, I64 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64

FEATURES = 128
SUBSAMPLING = 8
DURATIONS = [0, 1, 2, 3, 4]
LAYERS = 2
REAL = {"vocabulary": 8192, "encoder_dim": 1024, "pred_hidden": 640, "joint": 640}
PIECES = ["▁the", "▁a", "s", "▁Hello", "▁world", "ing", "▁speech", "▁is", "ed", "▁to", "▁of", "t", "▁and", "er",
          "▁we", "ly", "▁Warble", "▁sound", ".", ",", "?", "▁I", "'", "m", "▁die", "▁Straße", "ü", "ß", "▁été", "é",
          "▁niño", "ñ", "▁à", "▁ist", "▁und", "▁le", "▁la", "▁el", "▁", "e", "o", "n", "r", "-", "▁Ça", "!"]


def tokens(vocabulary=None):
    """tokens.txt's symbols in order: <unk> 0, the pieces (padded with made-up ones up to `vocabulary`), then <blk>
    (sherpa-onnx's export writes the joint's vocabulary, then "<blk> V")."""
    pieces = list(PIECES)
    if vocabulary is not None:
        pieces += [f"▁w{i}" for i in range(vocabulary - 1 - len(PIECES))]
    return ["<unk>"] + pieces + ["<blk>"]


def metadata(vocab_size, pred_hidden):
    return {
        "vocab_size": str(vocab_size), "normalize_type": "per_feature", "pred_rnn_layers": str(LAYERS),
        "pred_hidden": str(pred_hidden), "subsampling_factor": str(SUBSAMPLING), "model_type": "EncDecRNNTBPEModel",
        "version": "2", "model_author": "NeMo", "url": "https://huggingface.co/nvidia/parakeet-tdt-0.6b-v3",
        "comment": "Only the transducer branch is exported", "feat_dim": str(FEATURES),
    }


class Builder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.inits, self.nodes = [], []

    def const(self, name, value):
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def normal(self, name, scale, shape):
        return self.const(name, self.rng.normal(0, scale, shape).astype(np.float32))

    def node(self, op, inputs, outputs, **attrs):
        self.nodes.append(helper.make_node(op, inputs, outputs, **attrs))
        return outputs[0]

    def model(self, name, inputs, outputs, meta=None):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        proto = helper.make_model(graph, opset_imports=OPSET, producer_name="warble-tools-parakeet")
        proto.ir_version = IR_VERSION
        if meta:
            helper.set_model_props(proto, meta)
        return proto


def encoder(dim=32, seed=21, layers=0, vocabulary=None, pred_hidden=16):
    """The encoder's ModelProto (its metadata names the decoder's size). `layers` adds residual 1×1 convolutions
    (the benchmark's real-size cost)."""
    b = Builder(seed)
    w = b.normal("conv_w", 1.2 / np.sqrt(FEATURES * SUBSAMPLING), (dim, FEATURES, SUBSAMPLING))
    h = b.node("Conv", ["audio_signal", w, b.normal("conv_b", 0.2, dim)], ["conv"], kernel_shape=[SUBSAMPLING],
               strides=[SUBSAMPLING], pads=[0, SUBSAMPLING - 1])
    h = b.node("Tanh", [h], ["h0"])
    for layer in range(layers):
        wl = b.normal(f"layer{layer}_w", 1.0 / np.sqrt(dim), (dim, dim, 1))
        h = b.node("Add", [h, b.node("Tanh", [b.node("Conv", [h, wl], [f"layer{layer}_conv"], kernel_shape=[1])],
                                     [f"layer{layer}_tanh"])], [f"h{layer + 1}"])
    b.node("Identity", [h], ["outputs"])
    seven = b.const("seven", np.array(SUBSAMPLING - 1, np.int64))
    b.node("Div", [b.node("Add", ["length", seven], ["length_up"]), b.const("eight", np.array(SUBSAMPLING, np.int64))],
           ["encoded_lengths"])
    V = len(tokens(vocabulary)) - 1
    return b.model("encoder", [
        helper.make_tensor_value_info("audio_signal", F32, ["audio_signal_dynamic_axes_1", FEATURES, "audio_signal_dynamic_axes_2"]),
        helper.make_tensor_value_info("length", I64, ["length_dynamic_axes_1"]),
    ], [
        helper.make_tensor_value_info("outputs", F32, ["outputs_dynamic_axes_1", dim, "outputs_dynamic_axes_2"]),
        helper.make_tensor_value_info("encoded_lengths", I64, ["encoded_lengths_dynamic_axes_1"]),
    ], metadata(V, pred_hidden))


def decoder(hidden=16, seed=22, vocabulary=None):
    b = Builder(seed)
    V = len(tokens(vocabulary)) - 1
    table = b.rng.normal(0, 1.0, (V + 1, hidden)).astype(np.float32)
    table[V] = 0  # the blank is NeMo's padding index: a zero embedding
    x = b.node("Gather", [b.const("embedding", table), "targets"], ["embedded"])           # [B, U, H]
    x = b.node("Transpose", [x], ["embedded_t"], perm=[1, 0, 2])                             # [U, B, H]
    hs, cs = [], []
    for layer in range(LAYERS):
        index = b.const(f"layer{layer}", np.array([layer], np.int64))
        h0 = b.node("Gather", ["states.1", index], [f"h0_{layer}"], axis=0)                  # [1, B, H]
        c0 = b.node("Gather", ["onnx::Slice_3", index], [f"c0_{layer}"], axis=0)
        W = b.normal(f"lstm{layer}_W", 0.6, (1, 4 * hidden, hidden))
        R = b.normal(f"lstm{layer}_R", 0.3, (1, 4 * hidden, hidden))
        B = b.normal(f"lstm{layer}_B", 0.1, (1, 8 * hidden))
        y, yh, yc = f"lstm{layer}_y", f"lstm{layer}_h", f"lstm{layer}_c"
        b.nodes.append(helper.make_node("LSTM", [x, W, R, B, "", h0, c0], [y, yh, yc], hidden_size=hidden))
        x = b.node("Squeeze", [y, b.const(f"axis1_{layer}", np.array([1], np.int64))], [f"lstm{layer}_out"])  # [U, B, H]
        hs.append(yh)
        cs.append(yc)
    b.node("Transpose", [x], ["outputs"], perm=[1, 2, 0])                                    # [B, H, U]
    b.node("Identity", ["target_length"], ["prednet_lengths"])
    b.node("Concat", hs, ["states"], axis=0)
    b.node("Concat", cs, ["162"], axis=0)
    return b.model("decoder", [
        helper.make_tensor_value_info("targets", I32, ["targets_dynamic_axes_1", "targets_dynamic_axes_2"]),
        helper.make_tensor_value_info("target_length", I32, ["target_length_dynamic_axes_1"]),
        helper.make_tensor_value_info("states.1", F32, [LAYERS, "states.1_dim_1", hidden]),
        helper.make_tensor_value_info("onnx::Slice_3", F32, [LAYERS, 1, hidden]),
    ], [
        helper.make_tensor_value_info("outputs", F32, ["outputs_dynamic_axes_1", hidden, "outputs_dynamic_axes_2"]),
        helper.make_tensor_value_info("prednet_lengths", I32, ["prednet_lengths_dynamic_axes_1"]),
        helper.make_tensor_value_info("states", F32, [LAYERS, "states_dynamic_axes_1", hidden]),
        helper.make_tensor_value_info("162", F32, [LAYERS, "162_dim_1", hidden]),
    ])


def joiner(dim=32, hidden=16, joint=24, seed=23, vocabulary=None):
    b = Builder(seed)
    V = len(tokens(vocabulary)) - 1
    outputs = V + 1 + len(DURATIONS)
    enc = b.node("Transpose", ["encoder_outputs"], ["enc_t"], perm=[0, 2, 1])                  # [B, T, D]
    dec = b.node("Transpose", ["decoder_outputs"], ["dec_t"], perm=[0, 2, 1])                  # [B, U, H]
    f = b.node("MatMul", [enc, b.normal("enc_w", 1.0 / np.sqrt(dim), (dim, joint))], ["f"])
    g = b.node("MatMul", [dec, b.normal("pred_w", 0.8 / np.sqrt(hidden), (hidden, joint))], ["g"])
    f = b.node("Unsqueeze", [f, b.const("axis2", np.array([2], np.int64))], ["f4"])             # [B, T, 1, J]
    g = b.node("Unsqueeze", [g, b.const("axis1", np.array([1], np.int64))], ["g4"])             # [B, 1, U, J]
    h = b.node("Relu", [b.node("Add", [f, g], ["fg"])], ["joint"])
    bias = np.zeros(outputs, np.float32)
    bias[0] = -20.0                    # <unk> never comes out
    bias[V] = 2.6                      # the blank
    bias[V + 1:] = [0.0, 1.0, 0.8, 0.3, 0.0]   # durations 0–4
    w = b.rng.normal(0, 1.6 / np.sqrt(joint), (joint, outputs)).astype(np.float32)
    w[:, V + 1:] *= 0.6
    b.node("Add", [b.node("MatMul", [h, b.const("out_w", w)], ["out_mm"]), b.const("out_b", bias)], ["outputs"])
    return b.model("joiner", [
        helper.make_tensor_value_info("encoder_outputs", F32, ["encoder_outputs_dynamic_axes_1", dim, "encoder_outputs_dynamic_axes_2"]),
        helper.make_tensor_value_info("decoder_outputs", F32, ["decoder_outputs_dynamic_axes_1", hidden, "decoder_outputs_dynamic_axes_2"]),
    ], [helper.make_tensor_value_info("outputs", F32, ["outputs_dynamic_axes_1", "outputs_dynamic_axes_2",
                                                       "outputs_dynamic_axes_3", outputs])])


def write_repo(folder, dim=32, hidden=16, joint=24, layers=0, vocabulary=None, int8=True, fp32=True):
    """The repository's files: encoder.onnx with its weights in encoder.weights, decoder.onnx, joiner.onnx,
    tokens.txt, and (int8) the *.int8.onnx files as the export makes them (quantize_dynamic: encoder QUInt8,
    decoder and joiner QInt8). The int8 files are made from the f32 ones."""
    import os
    import onnx
    folder = str(folder)
    os.makedirs(folder, exist_ok=True)
    graphs = {"encoder": encoder(dim, layers=layers, vocabulary=vocabulary, pred_hidden=hidden),
              "decoder": decoder(hidden, vocabulary=vocabulary),
              "joiner": joiner(dim, hidden, joint, vocabulary=vocabulary)}
    onnx.save(graphs["encoder"], os.path.join(folder, "encoder.onnx"), save_as_external_data=True,
              all_tensors_to_one_file=True, location="encoder.weights", size_threshold=1024)
    for name in ("decoder", "joiner"):
        onnx.save(graphs[name], os.path.join(folder, f"{name}.onnx"))
    write_tokens(os.path.join(folder, "tokens.txt"), vocabulary)
    if int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic
        for name in ("encoder", "decoder", "joiner"):
            quantize_dynamic(os.path.join(folder, f"{name}.onnx"), os.path.join(folder, f"{name}.int8.onnx"),
                             weight_type=QuantType.QUInt8 if name == "encoder" else QuantType.QInt8)
        # The export writes the encoder's metadata again after quantising (quantize_dynamic keeps it; set it as
        # the export does, so that the int8 encoder carries exactly the same keys).
        quantized = onnx.load(os.path.join(folder, "encoder.int8.onnx"))
        del quantized.metadata_props[:]
        helper.set_model_props(quantized, metadata(len(tokens(vocabulary)) - 1, hidden))
        onnx.save(quantized, os.path.join(folder, "encoder.int8.onnx"))
    if not fp32:
        for name in ("encoder.onnx", "encoder.weights", "decoder.onnx", "joiner.onnx"):
            os.remove(os.path.join(folder, name))


def write_tokens(path, vocabulary=None):
    with open(path, "w", encoding="utf-8") as f:
        for i, token in enumerate(tokens(vocabulary)):
            f.write(f"{token} {i}\n")
