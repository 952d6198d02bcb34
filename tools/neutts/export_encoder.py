#!/usr/bin/env python3
"""NeuCodec's encoder as one ONNX graph, for cloning NeuTTS voices from a plain clip (issue #39, item 7).

    export_encoder.py [--out DIR]        (default: $WARBLE_HOME/models/neucodec-encoder)

Run once where PyTorch, the `neucodec` package (with its dependencies) and the Hugging Face Hub are
available: it loads neuphonic/neucodec (its w2v-bert-2.0 semantic model included) and writes DIR/model.onnx
(+ model.onnx.data: the weights) and DIR/manifest.json, which makes DIR an installed Warble model
("neucodec-encoder", family "neucodec"). Then `warble voice add NAME --model neutts --from CLIP
--transcript TEXT` works. No ONNX export of the encoder is published (neuphonic publishes the decoder only).

The graph: `audio` f32 [1, N] (16 kHz mono, N >= 400) -> `codes` int32 [1, 1, F], F = ceil((N + 1) / 320) - 1
(50 codes a second), the steps of NeuCodec.encode_code (neucodec 0.0.6 model.py) inside the graph:
  1. pad the audio with 320 - N % 320 zeros (always at least one);
  2. the w2v-bert-2.0 features of SeamlessM4TFeatureExtractor (Kaldi-like fbank: x 32768, 25 ms frames every
     10 ms, no centring, DC offset removed, pre-emphasis 0.97, Povey window, 512-point FFT, power, 80 Kaldi
     mel bins from 20 Hz, log with floor 1.1920929e-07; each bin normalised over time (ddof 1, + 1e-7);
     frame pairs stacked into 160 values). The frame's DC removal, pre-emphasis, window and DFT are one
     linear map, so they are one strided convolution here;
  3. the acoustic encoder (CodecEnc) on the padded audio, the semantic model's hidden_states[16] through
     SemanticEncoder_module, both cut to the shorter, concatenated (semantic first), fc_prior;
  4. the FSQ quantizer (levels 4 x 8, one quantizer) -> indices 0..65535.
Weights: the real export holds ~442 M parameters, ~1.77 GB in f32 (measured from the classes: w2v-bert-2.0's
feature projection and first 16 conformer layers 387 M -- the 8 later ones, 193 M, are dropped since only
hidden_states[16] is read --, CodecEncoder 38.5 M, SemanticEncoder 12.6 M, fc_prior 4.2 M, FSQ 0.02 M).
make_fixtures.py exports a small randomly initialised NeuCodec (encoder_fixtures.random_codec) the same way
for the tests.
"""
import argparse
import json
import hashlib
import os
import sys
import types
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HOP = 320                 # 16 kHz samples per code (50 Hz)
FRAME, SHIFT, FFT = 400, 160, 512
PREEMPHASIS = 0.97
MEL_FLOOR = 1.192092955078125e-07
NORM_EPS = 1e-7
SEMANTIC_LAYER = 16


def frame_transform(window):
    """The linear map from a 400-sample frame (already x 32768) to the real and imaginary parts of its
    257 DFT bins after DC removal, pre-emphasis and the window: [514, 400] float64."""
    n = FRAME
    dc = np.eye(n) - np.full((n, n), 1.0 / n)
    pre = np.eye(n)
    pre[0, 0] = 1 - PREEMPHASIS
    for i in range(1, n):
        pre[i, i - 1] = -PREEMPHASIS
    k = np.arange(FFT // 2 + 1)[:, None]
    t = np.arange(n)[None, :]
    angle = 2 * np.pi * k * t / FFT
    dft = np.concatenate([np.cos(angle), -np.sin(angle)], axis=0)
    return dft @ np.diag(window) @ pre @ dc * 32768.0


class W2vBertFeatures(nn.Module):
    """SeamlessM4TFeatureExtractor's input_features for audio whose length is a multiple of 320 (an even
    number of frames, so its padding to a multiple of 2 never applies)."""

    def __init__(self, window, mel_filters):
        super().__init__()
        transform = frame_transform(np.asarray(window, dtype=np.float64))
        self.register_buffer("frames", torch.tensor(transform, dtype=torch.float32)[:, None, :])
        self.register_buffer("mel", torch.tensor(np.asarray(mel_filters, dtype=np.float64).T, dtype=torch.float32))

    def forward(self, y):                           # y [1, 1, N]
        spectrum = F.conv1d(y, self.frames, stride=SHIFT)   # [1, 514, T]
        half = spectrum.shape[1] // 2
        power = spectrum[:, :half] ** 2 + spectrum[:, half:] ** 2
        mel = torch.log(torch.clamp(torch.matmul(self.mel, power), min=MEL_FLOOR))   # [1, 80, T]
        frames = mel.shape[-1]
        mean = mel.mean(dim=-1, keepdim=True)
        var = ((mel - mean) ** 2).sum(dim=-1, keepdim=True) / (frames - 1)
        x = ((mel - mean) / torch.sqrt(var + NORM_EPS)).transpose(1, 2)          # [1, T, 80]
        return x.reshape(1, -1, 2 * x.shape[-1])                                   # [1, T/2, 160]


class EncoderGraph(nn.Module):
    """NeuCodec.encode_code for one clip, audio [1, N] -> codes int32 [1, 1, F]."""

    def __init__(self, codec, window, mel_filters):
        super().__init__()
        self.codec = codec
        self.features = W2vBertFeatures(window, mel_filters)

    def forward(self, audio):
        n = audio.shape[-1]
        y = F.pad(audio, (0, HOP - n % HOP))[:, None, :]
        features = self.features(y)
        acoustic = self.codec.CodecEnc(y).transpose(1, 2)
        hidden = self.codec.semantic_model(features, output_hidden_states=True).hidden_states[SEMANTIC_LAYER]
        semantic = self.codec.SemanticEncoder_module(hidden.transpose(1, 2))
        length = torch.minimum(torch.tensor(acoustic.shape[-1]), torch.tensor(semantic.shape[-1]))
        joined = torch.cat([semantic[:, :, :length], acoustic[:, :, :length]], dim=1)
        joined = self.codec.fc_prior(joined.transpose(1, 2))                      # [1, F, 2048]
        _, indices = self.codec.generator.quantizer(joined)                       # [1, F, 1]
        return indices.transpose(1, 2).to(torch.int32)


def _static_channels(graph, example):
    """neucodec's anti-aliased activations expand their filter to the input's channel count, read from the
    input's shape, which the TorchScript exporter cannot turn into a convolution kernel. The counts are
    fixed by the layers, so they are taken from one eager run and the same forwards run with them."""
    from neucodec.alias_free_torch.filter import LowPassFilter1d
    from neucodec.alias_free_torch.resample import UpSample1d
    seen = {}
    hooks = [m.register_forward_pre_hook(lambda module, args: seen.__setitem__(module, int(args[0].shape[1])))
             for m in graph.modules() if isinstance(m, (UpSample1d, LowPassFilter1d))]
    with torch.no_grad():
        graph(example)
    for hook in hooks:
        hook.remove()

    def upsample(self, x):
        c = self.static_channels
        x = F.pad(x, (self.pad, self.pad), mode="replicate")
        x = self.ratio * F.conv_transpose1d(x, self.filter.expand(c, -1, -1), stride=self.stride, groups=c)
        return x[..., self.pad_left:-self.pad_right]

    def lowpass(self, x):
        c = self.static_channels
        if self.padding:
            x = F.pad(x, (self.pad_left, self.pad_right), mode=self.padding_mode)
        return F.conv1d(x, self.filter.expand(c, -1, -1), stride=self.stride, groups=c)

    for module, channels in seen.items():
        module.static_channels = channels
        module.forward = types.MethodType(upsample if isinstance(module, UpSample1d) else lowpass, module)
    return list(seen)


def export(codec, window, mel_filters, path, external=False):
    # Only hidden_states[16] is read: the semantic model's later layers are left out of the graph (the 16th
    # hidden state does not depend on them; w2v-bert-2.0 has 24). The codec is put back as it was after.
    encoder = codec.semantic_model.encoder
    layers = encoder.layers
    encoder.layers = layers[:SEMANTIC_LAYER]
    try:
        graph = EncoderGraph(codec.eval(), window, mel_filters).eval()
        example = torch.zeros(1, 16000)
        patched = _static_channels(graph, example)
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with torch.no_grad():
            torch.onnx.export(graph, (example,), str(path), dynamo=False, opset_version=17, input_names=["audio"],
                              output_names=["codes"], dynamic_axes={"audio": {1: "samples"}, "codes": {2: "frames"}})
        for module in patched:
            del module.forward      # the class's own forward again
    finally:
        encoder.layers = layers
    if external:
        import onnx
        model = onnx.load(str(path))
        onnx.save_model(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=path.name + ".data", size_threshold=1024)
    return path


def write_manifest(directory, source, licence="Apache-2.0", model_id="neucodec-encoder"):
    directory = Path(directory)
    files = []
    for p in sorted(directory.iterdir()):
        if p.is_file() and p.name.startswith("model.onnx"):
            files.append({"path": p.name, "bytes": p.stat().st_size, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()})
    manifest = {"id": model_id, "family": "neucodec", "displayName": "NeuCodec encoder (ONNX export)",
                "licence": licence, "source": source, "sampleRate": 16000, "languages": [], "voices": [],
                "files": files, "converter": "tools/neutts/export_encoder.py",
                "config": {"role": "encoder", "inputs": {"audio": "f32 [1, N] 16 kHz"}, "outputs": {"codes": "i32 [1, 1, F] 50 Hz"}}}
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


def published_codec():
    from neucodec import NeuCodec
    codec = NeuCodec.from_pretrained("neuphonic/neucodec")
    return codec, codec.feature_extractor.window, codec.feature_extractor.mel_filters


def main():
    home = Path(os.environ.get("WARBLE_HOME", Path.home() / ".local/share/warble"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=home / "models" / "neucodec-encoder")
    args = parser.parse_args()
    codec, window, mel = published_codec()
    export(codec, window, mel, args.out / "model.onnx", external=True)
    write_manifest(args.out, "neuphonic/neucodec exported by tools/neutts/export_encoder.py")
    total = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"wrote {args.out} ({total / 1e9:.2f} GB)")


if __name__ == "__main__":
    sys.exit(main())
