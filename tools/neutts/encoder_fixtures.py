"""A small randomly initialised NeuCodec, its encoder exported by export_encoder.py, three clips and the codes
PyTorch gives them (issue #39, item 7): the Swift tests run the graph and must find the same codes.

    encoder_fixtures.py OUTDIR          (make_fixtures.py calls write(OUTDIR))

The reference is neucodec 0.0.6's own NeuCodec.encode_code, run on a NeuCodec whose parts are its own
classes built from its published configuration, made small where the configuration allows:
  - semantic model: transformers' Wav2Vec2BertModel with Wav2Vec2BertConfig's defaults (w2v-bert-2.0's
    layout: relative_key positions, depthwise kernel 31, 160 input features) but width 32, 18 layers (the
    encoder reads hidden_states[16]; the export keeps 16 of them, the reference runs all 18), 2 heads, FFN 64; the feature extractor is SeamlessM4TFeatureExtractor
    with w2v-bert-2.0's settings (80 mel bins, stride 2, padding value 1.0 [3P]);
  - CodecEncoder with ngf 4 (published 48) and hidden 32 (published 1024), its strides [2, 2, 4, 4, 5] as
    published; SemanticEncoder(32, 32, 32) (published 1024s); fc_prior Linear(64, 2048) (published 2048 in);
  - the quantizer exactly as published: ResidualFSQ(dim=2048, levels=[4] * 8, num_quantizers=1).
neucodec's model.py imports torchaudio, torchtune and local_attention at module level for parts the
encoder does not use (file loading, the decoder's rotary embeddings, the distilled encoder); they are
not installed here, so empty stand-ins are registered before the import.
"""
import json
import sys
import types
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

from tools.common.wav import write_pcm16  # noqa: E402
from tools.neutts import export_encoder  # noqa: E402

SEED = 20261128
CLIP_SECONDS = [3.0, 4.37, 6.02]   # lengths that are not multiples of 320 samples, and one that is close


def _stand_ins():
    import importlib.machinery
    import transformers  # noqa: F401  (first: it probes for torchaudio, which must not look installed)
    from transformers import HubertModel, Wav2Vec2BertModel  # noqa: F401
    for name in ("torchaudio", "torchaudio.transforms", "torchtune", "torchtune.modules", "local_attention",
                 "local_attention.transformer"):
        if name not in sys.modules:
            try:
                __import__(name)
            except ImportError:
                module = types.ModuleType(name)
                module.__spec__ = importlib.machinery.ModuleSpec(name, None)
                module.__dict__.update(RotaryPositionalEmbeddings=object, DynamicPositionBias=object, LocalMHA=object,
                                       FeedForward=object, transforms=None, Resample=object)
                sys.modules[name] = module


def random_codec(seed=SEED):
    _stand_ins()
    from neucodec.model import NeuCodec
    from neucodec.codec_encoder import CodecEncoder
    from neucodec.codec_decoder_vocos import CodecDecoderVocos
    from neucodec.module import SemanticEncoder
    from transformers import SeamlessM4TFeatureExtractor, Wav2Vec2BertConfig, Wav2Vec2BertModel
    from vector_quantize_pytorch import ResidualFSQ

    class Generator(nn.Module):
        """CodecDecoderVocos with only its quantizer (its forward with vq=True uses nothing else)."""
        forward = CodecDecoderVocos.forward

        def __init__(self):
            super().__init__()
            self.quantizer = ResidualFSQ(dim=2048, levels=[4, 4, 4, 4, 4, 4, 4, 4], num_quantizers=1)

    torch.manual_seed(seed)
    codec = NeuCodec.__new__(NeuCodec)
    nn.Module.__init__(codec)
    codec.sample_rate, codec.hop_length = 24_000, 480
    config = Wav2Vec2BertConfig(hidden_size=32, num_hidden_layers=18, num_attention_heads=2, intermediate_size=64,
                                output_hidden_states=True)
    codec.semantic_model = Wav2Vec2BertModel(config)
    codec.feature_extractor = SeamlessM4TFeatureExtractor(feature_size=80, num_mel_bins=80, sampling_rate=16000, stride=2,
                                                          padding_value=1.0)
    codec.SemanticEncoder_module = SemanticEncoder(32, 32, 32)
    codec.CodecEnc = CodecEncoder(ngf=4, hidden_dim=32)
    codec.generator = Generator()
    codec.fc_prior = nn.Linear(64, 2048)
    # Random weights give pre-quantisation values near 0, where every FSQ level would round alike: widen
    # fc_prior so that the codes spread over the codebook.
    with torch.no_grad():
        codec.fc_prior.weight.mul_(8.0)
    return codec.eval()


def clips(seed=SEED):
    rng = np.random.default_rng(seed)
    out = []
    for k, seconds in enumerate(CLIP_SECONDS):
        n = int(seconds * 16000)
        t = np.arange(n) / 16000
        # A voiced-like signal: a gliding harmonic tone with an envelope, plus a little noise.
        f0 = 110 + 40 * k + 30 * np.sin(2 * np.pi * 0.7 * t)
        phase = 2 * np.pi * np.cumsum(f0) / 16000
        wave = sum(np.sin(h * phase) / h for h in range(1, 8))
        envelope = 0.5 + 0.5 * np.sin(2 * np.pi * (1.5 + k) * t) ** 2
        out.append((0.2 * envelope * wave + 0.01 * rng.standard_normal(n)).astype(np.float32))
    return out


def write(out):
    torch.set_num_threads(1)   # beside the Swift build (two cores), more threads only wait for each other
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    codec = random_codec()
    extractor = codec.feature_extractor
    cases = []
    for k, clip in enumerate(clips()):
        # PyTorch first, on neucodec's own modules as they are (the export patches some forwards while it runs).
        with torch.no_grad():
            codes = codec.encode_code(torch.from_numpy(clip)[None, None, :]).reshape(-1).numpy().astype(np.int64)
        name = f"clip{k}.f32"
        (out / name).write_bytes(clip.astype("<f4").tobytes())
        (out / f"clip{k}.wav").write_bytes(_wav(clip))
        cases.append({"clip": name, "wav": f"clip{k}.wav", "samples": int(clip.size), "codes": codes.tolist(),
                      "distinct": int(len(set(codes.tolist())))})
    export_encoder.export(codec, extractor.window, extractor.mel_filters, out / "model.onnx")
    export_encoder.write_manifest(out, "random NeuCodec (tools/neutts/encoder_fixtures.py)", licence="synthetic (tools/neutts)")
    (out / "codes.json").write_text(json.dumps({"seed": SEED, "cases": cases}, indent=1) + "\n")
    return cases


def _wav(samples):
    import io
    buffer = io.BytesIO()
    write_pcm16(buffer, (np.clip(samples, -1, 1) * 32767).astype("<i2"), 16000)
    return buffer.getvalue()


if __name__ == "__main__":
    for case in write(sys.argv[1]):
        print(case["samples"], len(case["codes"]), case["distinct"], case["codes"][:8])
