"""Builds Whisper encoder and KV-cache decoder ONNX graphs from ct2 variables (onnx + numpy only).

Weights keep their stored precision in the file (f16 stays f16, bf16 stays bf16, int8/int16 stay
integer with their ct2 scales) and are widened to f32 inside the graph by Cast (and Div by the
per-row scale for integer weights, exactly as ctranslate2 dequantises); ONNX Runtime folds these
constants once at session creation. All activations are f32.

Tensor layout (documented in the manifest too):
  encoder: mel f32 [B, n_mels, 3000] -> hidden f32 [B, 1500, D],
           cross_k_<i> f32 [B, H, hd, 1500] (K transposed for Q @ K), cross_v_<i> f32 [B, H, 1500, hd]
           for every decoder layer i (one tensor per layer: no per-step slicing copies).
  decoder: tokens i64 [B, T], offset i64 [1] (position of tokens[:, 0]),
           logit_positions i64 [K] (which of the T positions get logits: the vocabulary projection
           is most of a step, and a prompt step needs only its last position and start of transcript),
           past_k_<i> f32 [B, H, hd, P] (K transposed), past_v_<i> f32 [B, H, P, hd] for every layer i
           (one tensor per layer: no per-step split or concatenation of the whole cache),
           cross_k_<i>, cross_v_<i> with batch 1 or B (batch 1: beams share one encoding, and each
           head's K and V are read once per step for all beams)
        -> logits f32 [B, K, V], present_k_<i> [B, H, hd, P+T], present_v_<i> [B, H, P+T, hd].
  Start with P = 0 (empty past tensors). Token i of the call attends to the P past positions and
  to tokens 0..i of the call (causal mask built inside the graph from P = shape(past_k_0)[3]).
"""

from __future__ import annotations

import math
import re

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from tools.whisper.ct2_model import Ct2FormatError, Ct2Model, Variable

OPSET = 20  # Gelu (20), LayerNormalization (17)
N_AUDIO_CTX = 1500
N_FRAMES = 3000


class WhisperDims:
    def __init__(self, model: Ct2Model):
        self.model = model
        emb = model.get("decoder/embeddings/weight")
        self.n_vocab, self.d_model = emb.shape
        conv1 = model.get("encoder/conv1/weight")
        self.n_mels = conv1.shape[1]
        if conv1.shape[0] != self.d_model or conv1.shape[2] != 3:
            raise Ct2FormatError(f"encoder/conv1/weight has shape {conv1.shape}; "
                                 f"[{self.d_model}, n_mels, 3] was expected")
        self.encoder_layers = _count_layers(model, "encoder")
        self.decoder_layers = _count_layers(model, "decoder")
        self.encoder_heads = int(model.get("encoder/num_heads").scalar())
        self.decoder_heads = int(model.get("decoder/num_heads").scalar())
        for heads in (self.encoder_heads, self.decoder_heads):
            if heads <= 0 or self.d_model % heads:
                raise Ct2FormatError(f"num_heads {heads} does not divide the model width {self.d_model}")
        self.n_text_ctx = model.get("decoder/position_encodings/encodings").shape[0]
        _check_flags(model)
        self.activation_approximate = _decoder_gelu(model)


def _count_layers(model: Ct2Model, stack: str) -> int:
    pattern = re.compile(rf"^{stack}/layer_(\d+)/")
    indices = {int(m.group(1)) for name in list(model.variables) + list(model.aliases)
               if (m := pattern.match(name))}
    if not indices:
        raise Ct2FormatError(f"{model.path}: no {stack}/layer_<n>/ variables found")
    if indices != set(range(len(indices))):
        raise Ct2FormatError(f"{model.path}: {stack} layer indices are not 0..n-1: {sorted(indices)}")
    return len(indices)


def _check_flags(model: Ct2Model) -> None:
    """Rejects ct2 options that would change the maths; ignores unknown scalars."""
    expected = {"decoder/pre_norm": 1, "decoder/alibi": 0, "decoder/scale_embeddings": 0,
                "decoder/start_from_zero_embedding": 0, "encoder/pre_norm": 1}
    for name, want in expected.items():
        var = model.get_optional(name)
        if var is not None and var.data.size == 1 and int(var.scalar()) != want:
            raise Ct2FormatError(f"{model.path}: {name} = {var.scalar()} (offset {var.offset}); "
                                 f"only {want} is supported for Whisper")


def _decoder_gelu(model: Ct2Model) -> str:
    var = model.get_optional("decoder/activation")
    if var is None:
        return "none"
    value = int(var.scalar())
    # ctranslate2 ActivationType: 1 GELUTanh, 3 GELU (erf).
    if value == 3:
        return "none"
    if value == 1:
        return "tanh"
    raise Ct2FormatError(f"{model.path}: decoder/activation = {value} (offset {var.offset}); "
                         "accepted: 3 (GELU, erf) or 1 (GELU, tanh)")


def whisper_sinusoids(length: int, channels: int) -> np.ndarray:
    """Whisper's encoder position table, for old files that did not store it."""
    increment = math.log(10000) / (channels // 2 - 1)
    inv = np.exp(-increment * np.arange(channels // 2, dtype=np.float64))
    t = np.arange(length, dtype=np.float64)[:, None] * inv[None, :]
    return np.concatenate([np.sin(t), np.cos(t)], axis=1).astype(np.float32)


class GraphBuilder:
    def __init__(self, model: Ct2Model, name: str):
        self.model = model
        self.name = name
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[TensorProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self._weights: dict[tuple[str, bool], str] = {}
        self._consts: dict[tuple, str] = {}
        self._renamed: dict[str, str] = {}
        self._counter = 0

    # -- plumbing -------------------------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        self._counter += 1
        return f"{hint}__{self._counter}"

    def op(self, op_type: str, inputs: list[str], hint: str | None = None, n_out: int = 1,
           **attrs) -> str | list[str]:
        outs = [self.fresh(hint or op_type) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=self.fresh(f"n_{op_type}"), **attrs))
        return outs[0] if n_out == 1 else outs

    def const(self, value, dtype=np.int64) -> str:
        arr = np.asarray(value, dtype=dtype)
        key = (arr.dtype.str, arr.shape, arr.tobytes())
        if key not in self._consts:
            name = self.fresh("const")
            self.initializers.append(numpy_helper.from_array(arr, name))
            self._consts[key] = name
        return self._consts[key]

    def initializer(self, name: str, array: np.ndarray, onnx_type: int | None = None) -> str:
        if onnx_type == TensorProto.BFLOAT16:
            tensor = helper.make_tensor(name, TensorProto.BFLOAT16, array.shape,
                                        np.ascontiguousarray(array, dtype="<u2").tobytes(), raw=True)
        else:
            tensor = numpy_helper.from_array(np.ascontiguousarray(array), name)
        self.initializers.append(tensor)
        return name

    def weight(self, ct2_name: str, transpose: bool = False) -> str:
        """An f32 value of a ct2 variable; stored in its source precision."""
        # By the variable an alias stands for: ctranslate2 aliases every set of equal variables (a
        # random model's LayerNorms), and one initializer serves them all.
        key = (self.model.resolve(ct2_name), transpose)
        if key in self._weights:
            return self._weights[key]
        var = self.model.get(ct2_name)
        base = self.model.resolve(ct2_name).replace("/", ".") + (".T" if transpose else "")
        data = var.data.T if transpose else var.data
        if var.dtype == "float32":
            out = self.initializer(base, data)
        elif var.dtype in ("float16", "bfloat16"):
            kind = TensorProto.FLOAT16 if var.dtype == "float16" else TensorProto.BFLOAT16
            stored = self.initializer(base, data, kind)
            out = self.op("Cast", [stored], base + ".f32", to=TensorProto.FLOAT)
        elif var.dtype in ("int8", "int16"):
            out = self._dequantised(ct2_name, var, base, data, transpose)
        else:
            raise Ct2FormatError(f"variable {ct2_name!r} at offset {var.offset} is {var.dtype}; "
                                 "weights must be float32, float16, bfloat16, int8 or int16")
        self._weights[key] = out
        return out

    def rows(self, ct2_name: str, ids: str, hint: str) -> str:
        """f32 rows `ids` of a 2-D ct2 variable (an embedding lookup). A 16-bit table is gathered in
        its stored precision and only the rows are widened, so that the table's f32 copy is used by
        the output projection alone (ONNX Runtime then keeps just its pre-packed form)."""
        var = self.model.get(ct2_name)
        if var.dtype not in ("float16", "bfloat16"):
            return self.op("Gather", [self.weight(ct2_name), ids], hint, axis=0)
        self.weight(ct2_name)  # the stored initializer, shared with the f32 Cast
        base = self.model.resolve(ct2_name).replace("/", ".")
        picked = self.op("Gather", [base, ids], hint + ".stored", axis=0)
        return self.op("Cast", [picked], hint, to=TensorProto.FLOAT)

    def _dequantised(self, ct2_name: str, var: Variable, base: str, data: np.ndarray,
                     transpose: bool) -> str:
        scale_var = self.model.get_optional(ct2_name + "_scale")
        if scale_var is None:
            if var.dtype == "int16":
                scale = np.asarray(1000.0, dtype=np.float32)  # ct2's global int16 scale for old files
            else:
                raise Ct2FormatError(f"int8 variable {ct2_name!r} (offset {var.offset}) has no "
                                     f"{ct2_name + '_scale'!r}; int8 weights need a per-row scale")
        else:
            scale = scale_var.as_float32()
        rows = var.shape[0]
        if scale.size == 1:
            scale = scale.reshape(())
        elif scale.size == rows and var.data.ndim == 2:
            scale = scale.reshape((1, rows) if transpose else (rows, 1))
        else:
            raise Ct2FormatError(f"{ct2_name}_scale has shape {scale.shape}; a scalar or one value per "
                                 f"row of {ct2_name} {var.shape} was expected")
        stored = self.initializer(base, data)
        scale_name = self.initializer(base + ".scale", np.asarray(scale, dtype=np.float32))
        widened = self.op("Cast", [stored], base + ".f32i", to=TensorProto.FLOAT)
        return self.op("Div", [widened, scale_name], base + ".f32")

    def add_input(self, name: str, elem: int, shape: list | None) -> str:
        self.inputs.append(helper.make_tensor_value_info(name, elem, shape))
        return name

    def add_output(self, value: str, name: str, elem: int, shape: list) -> None:
        """Makes `value` a graph output called `name`. A value computed by a node is renamed at build
        time (an Identity in between would copy the tensor at every run); an input or an initializer
        goes through an Identity."""
        if any(value in n.output for n in self.nodes) and value not in self._renamed:
            self._renamed[value] = name
        else:
            self.nodes.append(helper.make_node("Identity", [value], [name], name=self.fresh("n_out")))
        self.outputs.append(helper.make_tensor_value_info(name, elem, shape))

    def build(self, doc: str) -> onnx.ModelProto:
        for node in self.nodes:
            for names in (node.input, node.output):
                for i, x in enumerate(names):
                    names[i] = self._renamed.get(x, x)
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="warble tools/whisper/convert_ct2.py", doc_string=doc)
        model.ir_version = 9
        onnx.checker.check_model(model)
        return model

    # -- layers ---------------------------------------------------------------------------------
    def linear(self, x: str, prefix: str, bias: bool = True) -> str:
        y = self.op("MatMul", [x, self.weight(prefix + "/weight", transpose=True)], prefix + ".mm")
        if bias and self.model.has(prefix + "/bias"):
            y = self.op("Add", [y, self.weight(prefix + "/bias")], prefix + ".out")
        return y

    def layer_norm(self, x: str, prefix: str, two_pass: bool = False) -> str:
        """LayerNorm over the last axis, eps 1e-5. ONNX Runtime's LayerNormalization kernel takes the
        variance as E[x^2] - E[x]^2; `two_pass` spells out mean((x - mean)^2) instead, as ctranslate2
        does. The encoder uses it: on frames with large activations it halves the gap to ctranslate2
        (e.g. 1.1e-3 -> 8.9e-4 max abs on whisper-base) at no measurable cost for 1500-frame inputs."""
        gamma, beta = self.weight(prefix + "/gamma"), self.weight(prefix + "/beta")
        if not two_pass:
            return self.op("LayerNormalization", [x, gamma, beta], prefix + ".ln", axis=-1, epsilon=1e-5)
        axes = self.const([-1])
        mean = self.op("ReduceMean", [x, axes], prefix + ".mean", keepdims=1)
        centred = self.op("Sub", [x, mean], prefix + ".centred")
        var = self.op("ReduceMean", [self.op("Mul", [centred, centred], prefix + ".sq"), axes], prefix + ".var",
                      keepdims=1)
        std = self.op("Sqrt", [self.op("Add", [var, self.const(1e-5, np.float32)], prefix + ".var_eps")],
                      prefix + ".std")
        normed = self.op("Div", [centred, std], prefix + ".normed")
        return self.op("Add", [self.op("Mul", [normed, gamma], prefix + ".scaled"), beta], prefix + ".ln")

    def gelu(self, x: str, approximate: str = "none") -> str:
        return self.op("Gelu", [x], "gelu", approximate=approximate)

    def heads(self, x: str, n_heads: int, head_dim: int, transposed_k: bool = False) -> str:
        """[B, T, D] -> [B, H, T, hd], or [B, H, hd, T] when transposed_k."""
        r = self.op("Reshape", [x, self.const([0, 0, n_heads, head_dim])], "split_heads")
        return self.op("Transpose", [r], "heads", perm=[0, 2, 3, 1] if transposed_k else [0, 2, 1, 3])

    def merge_heads(self, x: str, d_model: int) -> str:
        t = self.op("Transpose", [x], "merge", perm=[0, 2, 1, 3])
        return self.op("Reshape", [t, self.const([0, 0, d_model])], "merged")

    def attend(self, q: str, k_t: str, v: str, head_dim: int, mask: str | None = None) -> tuple[str, str]:
        """softmax(q k / sqrt(hd) + mask) v with q [B,H,T,hd], k_t [B,H,hd,S], v [B,H,S,hd].
        Returns the context and the scores before the mask and softmax, [B,H,T,S]."""
        qs = self.op("Mul", [q, self.const(1.0 / math.sqrt(head_dim), np.float32)], "q_scaled")
        scores = self.op("MatMul", [qs, k_t], "scores")
        masked = scores if mask is None else self.op("Add", [scores, mask], "masked")
        probs = self.op("Softmax", [masked], "probs", axis=-1)
        return self.op("MatMul", [probs, v], "context"), scores

    def attend_shared(self, q: str, k_t: str, v: str, head_dim: int) -> tuple[str, str]:
        """Cross-attention where k_t/v may have batch 1 while q has batch B (beams sharing one window):
        the rows of q are regrouped as [Bk, H, (B / Bk) * T, hd] (Bk = batch of k_t), so that each
        head's K and V are read once per step by one matrix product instead of once per beam.
        Returns the context and the scores in that grouping, [Bk, H, (B / Bk) * T, 1500]: [B, H, T, 1500]
        when B = Bk (one sequence, as for word alignment)."""
        q_shape = self.op("Shape", [q], "q_shape")
        k_batch = self.op("Slice", [self.op("Shape", [k_t], "k_shape"), self.const([0]), self.const([1])], "k_batch")
        heads, tokens = (self.op("Slice", [q_shape, self.const([i]), self.const([i + 1])], name)
                         for i, name in ((1, "q_heads"), (2, "q_tokens")))
        grouped = self.op("Reshape", [q, self.op("Concat", [k_batch, self.const([-1]), heads, tokens,
                                                            self.const([head_dim])], "group_shape", axis=0)],
                          "q_grouped")
        grouped = self.op("Transpose", [grouped], "q_by_head", perm=[0, 2, 1, 3, 4])
        rows = self.op("Reshape", [grouped, self.op("Concat", [k_batch, heads, self.const([-1, head_dim])],
                                                    "rows_shape", axis=0)], "q_rows")
        ctx, scores = self.attend(rows, k_t, v, head_dim)
        ctx = self.op("Reshape", [ctx, self.op("Shape", [grouped], "grouped_shape")], "ctx_grouped")
        ctx = self.op("Transpose", [ctx], "ctx_by_row", perm=[0, 2, 1, 3, 4])
        return self.op("Reshape", [ctx, q_shape], "ctx_rows"), scores

    def split3(self, x: str, d_model: int, parts: int) -> list[str]:
        return self.op("Split", [x, self.const([d_model] * parts)], "split", n_out=parts, axis=-1)


def build_encoder(model: Ct2Model, dims: WhisperDims) -> onnx.ModelProto:
    g = GraphBuilder(model, "whisper_encoder")
    D, H = dims.d_model, dims.encoder_heads
    hd = D // H
    mel = g.add_input("mel", TensorProto.FLOAT, ["batch", dims.n_mels, N_FRAMES])
    x = g.op("Conv", [mel, g.weight("encoder/conv1/weight"), g.weight("encoder/conv1/bias")], "conv1",
             kernel_shape=[3], pads=[1, 1], strides=[1])
    x = g.gelu(x)
    x = g.op("Conv", [x, g.weight("encoder/conv2/weight"), g.weight("encoder/conv2/bias")], "conv2",
             kernel_shape=[3], pads=[1, 1], strides=[2])
    x = g.gelu(x)
    x = g.op("Transpose", [x], "frames", perm=[0, 2, 1])
    if model.has("encoder/position_encodings/encodings"):
        positions = g.weight("encoder/position_encodings/encodings")
    else:
        positions = g.initializer("encoder.position_encodings.sinusoids", whisper_sinusoids(N_AUDIO_CTX, D))
    x = g.op("Add", [x, positions], "embedded")
    for i in range(dims.encoder_layers):
        p = f"encoder/layer_{i}"
        h = g.layer_norm(x, f"{p}/self_attention/layer_norm", two_pass=True)
        q, k, v = g.split3(g.linear(h, f"{p}/self_attention/linear_0"), D, 3)
        ctx, _ = g.attend(g.heads(q, H, hd), g.heads(k, H, hd, transposed_k=True), g.heads(v, H, hd), hd)
        x = g.op("Add", [x, g.linear(g.merge_heads(ctx, D), f"{p}/self_attention/linear_1")], "res")
        x = _ffn(g, x, f"{p}/ffn", "none", two_pass=True)
    hidden = g.layer_norm(x, "encoder/layer_norm", two_pass=True)
    g.add_output(hidden, "hidden", TensorProto.FLOAT, ["batch", N_AUDIO_CTX, D])
    Hd, hdd = dims.decoder_heads, D // dims.decoder_heads
    for i in range(dims.decoder_layers):
        kv = g.linear(hidden, f"decoder/layer_{i}/attention/linear_1")
        k, v = g.split3(kv, D, 2)
        g.add_output(g.heads(k, Hd, hdd, transposed_k=True), f"cross_k_{i}", TensorProto.FLOAT,
                     ["batch", Hd, hdd, N_AUDIO_CTX])
        g.add_output(g.heads(v, Hd, hdd), f"cross_v_{i}", TensorProto.FLOAT, ["batch", Hd, N_AUDIO_CTX, hdd])
    return g.build("Whisper encoder converted from CTranslate2 by warble; see tools/whisper/whisper_graphs.py")


def _ffn(g: GraphBuilder, x: str, prefix: str, approximate: str, two_pass: bool = False) -> str:
    h = g.layer_norm(x, f"{prefix}/layer_norm", two_pass)
    h = g.gelu(g.linear(h, f"{prefix}/linear_0"), approximate)
    return g.op("Add", [x, g.linear(h, f"{prefix}/linear_1")], "res")


def build_decoder(model: Ct2Model, dims: WhisperDims) -> onnx.ModelProto:
    g = GraphBuilder(model, "whisper_decoder")
    D, H, L = dims.d_model, dims.decoder_heads, dims.decoder_layers
    hd = D // H
    tokens = g.add_input("tokens", TensorProto.INT64, ["batch", "tokens"])
    offset = g.add_input("offset", TensorProto.INT64, [1])
    logit_positions = g.add_input("logit_positions", TensorProto.INT64, ["logit_positions"])
    past = [(g.add_input(f"past_k_{i}", TensorProto.FLOAT, ["batch", H, hd, "past"]),
             g.add_input(f"past_v_{i}", TensorProto.FLOAT, ["batch", H, "past", hd])) for i in range(L)]
    cross = [(g.add_input(f"cross_k_{i}", TensorProto.FLOAT, ["cross_batch", H, hd, N_AUDIO_CTX]),
              g.add_input(f"cross_v_{i}", TensorProto.FLOAT, ["cross_batch", H, N_AUDIO_CTX, hd]))
             for i in range(L)]

    table = g.weight("decoder/embeddings/weight")
    projection = table
    if model.has("decoder/projection/weight"):
        resolved = model.resolve("decoder/projection/weight")
        same = resolved == model.resolve("decoder/embeddings/weight")
        if not same:
            a, b = model.get("decoder/projection/weight"), model.get("decoder/embeddings/weight")
            same = a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.data, b.data)
        if not same:
            projection = g.weight("decoder/projection/weight")

    # Positions offset .. offset+T-1 and the causal mask over past + new keys.
    t_len = g.op("Gather", [g.op("Shape", [tokens], "tok_shape"), g.const(1)], "t_len", axis=0)
    p_len = g.op("Gather", [g.op("Shape", [past[0][0]], "past_shape"), g.const(3)], "p_len", axis=0)
    steps = g.op("Range", [g.const(0), t_len, g.const(1)], "steps")
    pos_ids = g.op("Add", [steps, g.op("Reshape", [offset, g.const([-1])], "offset1")], "pos_ids")
    x = g.rows("decoder/embeddings/weight", tokens, "tok_emb")
    x = g.op("Add", [x, g.op("Gather", [g.weight("decoder/position_encodings/encodings"), pos_ids], "pos_emb",
                             axis=0)], "embedded")
    total = g.op("Add", [t_len, p_len], "total")
    key_ids = g.op("Range", [g.const(0), total, g.const(1)], "key_ids")
    query_ids = g.op("Unsqueeze", [g.op("Add", [steps, p_len], "query_pos"), g.const([1])], "query_col")
    allowed = g.op("LessOrEqual", [key_ids, query_ids], "allowed")
    mask = g.op("Where", [allowed, g.const(0.0, np.float32), g.const(-np.inf, np.float32)], "mask")

    presents, cross_scores = [], []
    for i in range(L):
        p = f"decoder/layer_{i}"
        h = g.layer_norm(x, f"{p}/self_attention/layer_norm")
        q, k, v = g.split3(g.linear(h, f"{p}/self_attention/linear_0"), D, 3)
        k_all = g.op("Concat", [past[i][0], g.heads(k, H, hd, transposed_k=True)], "k_all", axis=3)
        v_all = g.op("Concat", [past[i][1], g.heads(v, H, hd)], "v_all", axis=2)
        presents.append((k_all, v_all))
        ctx, _ = g.attend(g.heads(q, H, hd), k_all, v_all, hd, mask)
        x = g.op("Add", [x, g.linear(g.merge_heads(ctx, D), f"{p}/self_attention/linear_1")], "res")

        h = g.layer_norm(x, f"{p}/attention/layer_norm")
        q = g.heads(g.linear(h, f"{p}/attention/linear_0"), H, hd)
        ctx, scores = g.attend_shared(q, cross[i][0], cross[i][1], hd)
        cross_scores.append(scores)
        x = g.op("Add", [x, g.linear(g.merge_heads(ctx, D), f"{p}/attention/linear_2")], "res")
        x = _ffn(g, x, f"{p}/ffn", dims.activation_approximate)
    picked = g.op("Gather", [x, logit_positions], "picked", axis=1)
    h = g.layer_norm(picked, "decoder/layer_norm")
    flat = g.op("Reshape", [h, g.const([-1, D])], "flat")
    logits = g.op("Gemm", [flat, projection], "logits2d", transB=1)
    rows = g.op("Slice", [g.op("Shape", [picked], "picked_shape"), g.const([0]), g.const([2])], "logit_rows")
    out_shape = g.op("Concat", [rows, g.const([-1])], "logits_shape", axis=0)
    logits = g.op("Reshape", [logits, out_shape], "logits3d")
    g.add_output(logits, "logits", TensorProto.FLOAT, ["batch", "logit_positions", dims.n_vocab])
    for i, (k_all, v_all) in enumerate(presents):
        g.add_output(k_all, f"present_k_{i}", TensorProto.FLOAT, ["batch", H, hd, "total"])
        g.add_output(v_all, f"present_v_{i}", TensorProto.FLOAT, ["batch", H, "total", hd])
    # Cross-attention scores (scaled q.k, before softmax) for word alignment: CTranslate2's Whisper
    # `align` takes the same values from its alignment heads. Computed anyway; fetched only when asked.
    for i, scores in enumerate(cross_scores):
        g.add_output(scores, f"cross_scores_{i}", TensorProto.FLOAT, ["cross_batch", H, "rows", N_AUDIO_CTX])
    return g.build("Whisper KV-cache decoder converted from CTranslate2 by warble; "
                   "see tools/whisper/whisper_graphs.py")
