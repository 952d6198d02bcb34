"""A float64 numpy Whisper encoder straight from the ct2 variables: the yardstick that tells whose
float32 rounding a gap between ONNX Runtime and ctranslate2 comes from."""

from __future__ import annotations

import math

import numpy as np

from tools.whisper.ct2_model import Ct2Model
from tools.whisper.whisper_graphs import WhisperDims

try:  # scipy is in the shared tool environment (tools/audio); math.erf element by element is the fallback
    from scipy.special import erf as _erf
except ImportError:  # pragma: no cover
    _erf_scalar = np.frompyfunc(math.erf, 1, 1)

    def _erf(x: np.ndarray) -> np.ndarray:
        return _erf_scalar(x).astype(np.float64)


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


class F64Encoder:
    def __init__(self, model: Ct2Model):
        self.model = model
        self.dims = WhisperDims(model)
        self._cache: dict[str, np.ndarray] = {}

    def w(self, name: str) -> np.ndarray:
        if name not in self._cache:
            var = self.model.get(name)
            if var.dtype in ("int8", "int16"):
                scale = self.model.get(name + "_scale").as_float32().astype(np.float64)
                value = var.data.astype(np.float64) / (scale.reshape(-1, 1) if scale.size > 1 else scale)
            else:
                value = var.as_float32().astype(np.float64)
            self._cache[name] = value
        return self._cache[name]

    def _conv(self, x: np.ndarray, prefix: str, stride: int) -> np.ndarray:
        weight, bias = self.w(prefix + "/weight"), self.w(prefix + "/bias")
        padded = np.pad(x, ((0, 0), (1, 1)))
        steps = (x.shape[1] - 1) // stride + 1
        out = sum(weight[:, :, k] @ padded[:, k: k + stride * (steps - 1) + 1: stride] for k in range(3))
        return out + bias[:, None]

    def _ln(self, x: np.ndarray, prefix: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-5) * self.w(prefix + "/gamma") + self.w(prefix + "/beta")

    def _linear(self, x: np.ndarray, prefix: str) -> np.ndarray:
        return x @ self.w(prefix + "/weight").T + self.w(prefix + "/bias")

    def __call__(self, mel: np.ndarray) -> np.ndarray:
        """mel [n_mels, 3000] -> hidden [1500, D] in float64."""
        d, heads = self.dims.d_model, self.dims.encoder_heads
        hd = d // heads
        x = _gelu(self._conv(mel.astype(np.float64), "encoder/conv1", 1))
        x = _gelu(self._conv(x, "encoder/conv2", 2)).T + self.w("encoder/position_encodings/encodings")
        for i in range(self.dims.encoder_layers):
            p = f"encoder/layer_{i}"
            qkv = self._linear(self._ln(x, f"{p}/self_attention/layer_norm"), f"{p}/self_attention/linear_0")
            q, k, v = (t.reshape(-1, heads, hd).transpose(1, 0, 2) for t in np.split(qkv, 3, axis=-1))
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
            probs = np.exp(scores - scores.max(-1, keepdims=True))
            probs /= probs.sum(-1, keepdims=True)
            context = (probs @ v).transpose(1, 0, 2).reshape(-1, d)
            x = x + self._linear(context, f"{p}/self_attention/linear_1")
            h = _gelu(self._linear(self._ln(x, f"{p}/ffn/layer_norm"), f"{p}/ffn/linear_0"))
            x = x + self._linear(h, f"{p}/ffn/linear_1")
        return self._ln(x, "encoder/layer_norm")
