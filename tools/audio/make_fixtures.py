#!/usr/bin/env python3
"""Golden outputs for WarbleAudio's parity tests.

Usage: make_fixtures.py OUTDIR

Writes OUTDIR/index.json and one raw little-endian float32 file per array (`NAME.f32`); the index maps
each name to {"file", "shape"} (row-major) plus "scalars" for single numbers, and "files" for audio
files in other formats written with soundfile (libsndfile). Deterministic: inputs come from fixed seeds
and are stored too, so the Swift tests feed the exact same samples.

References (versions pinned in requirements.txt): librosa (STFT, iSTFT, mel filters, mel spectrogram),
numpy re-implementations of faster-whisper's and Matcha-TTS's feature code (each a few lines, written
out below from their published algorithms), kaldi-native-fbank, python-soxr, pyloudnorm.
"""
import json
import os
import sys

import numpy as np

import kaldi_native_fbank as knf
import librosa
import pyloudnorm
import soundfile
import soxr


class Out:
    def __init__(self, root):
        self.root = root
        self.index = {"arrays": {}, "scalars": {}, "files": {}}
        os.makedirs(root, exist_ok=True)

    def array(self, name, value):
        a = np.ascontiguousarray(np.asarray(value, dtype="<f4"))
        a.tofile(os.path.join(self.root, name + ".f32"))
        self.index["arrays"][name] = {"file": name + ".f32", "shape": list(a.shape)}

    def scalar(self, name, value):
        self.index["scalars"][name] = float(value)

    def finish(self):
        with open(os.path.join(self.root, "index.json"), "w") as f:
            json.dump(self.index, f, indent=1, sort_keys=True)


def speechlike(sr, seconds, seed):
    """Voiced-ish test signal: harmonics of a gliding f0, amplitude envelope, pauses and a little noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(sr * seconds)) / sr
    f0 = 120 + 60 * np.sin(2 * np.pi * 0.7 * t)
    phase = 2 * np.pi * np.cumsum(f0) / sr
    x = sum(np.sin(k * phase) / k for k in range(1, 12) if k * 180 < sr / 2)
    envelope = 0.5 * (1 - np.cos(2 * np.pi * 2.3 * t)) * (np.sin(2 * np.pi * 0.45 * t) > -0.6)
    x = 0.3 * x * envelope + 0.01 * rng.standard_normal(t.shape)
    return x.astype(np.float32)


def frames_rows(complex_bins_by_frames):
    """librosa [bins, frames] complex → [frames, bins] real and imaginary."""
    s = complex_bins_by_frames.T
    return s.real.astype(np.float32), s.imag.astype(np.float32)


def whisper_log_mel(x, n_mels, padding=160):
    """faster-whisper FeatureExtractor.__call__: torch.stft(center=True, reflect), periodic Hann,
    drop last frame, |X|^2, librosa Slaney mel filters, log10 clamp 1e-10, max-8 floor, (x+4)/4."""
    x = np.pad(x, (0, padding))
    stft = librosa.stft(x, n_fft=400, hop_length=160, window="hann", center=True, pad_mode="reflect")
    power = np.abs(stft[:, :-1]) ** 2
    filters = librosa.filters.mel(sr=16000, n_fft=400, n_mels=n_mels)
    log_spec = np.log10(np.clip(filters @ power, 1e-10, None))
    log_spec = np.maximum(log_spec, log_spec.max() - 8.0)
    return ((log_spec + 4.0) / 4.0).T  # [frames, mels]


def matcha_mel(x, sr=24000, n_fft=1920, hop=480, n_mels=80, fmin=0, fmax=None):
    """Matcha-TTS / CosyVoice mel_spectrogram: reflect pad (n_fft-hop)/2, torch.stft(center=False),
    sqrt(|X|^2 + 1e-9), Slaney mel, ln(clamp(x, 1e-5))."""
    pad = (n_fft - hop) // 2
    x = np.pad(x, (pad, pad), mode="reflect")
    stft = librosa.stft(x, n_fft=n_fft, hop_length=hop, win_length=n_fft, window="hann", center=False)
    magnitude = np.sqrt(stft.real.astype(np.float64) ** 2 + stft.imag ** 2 + 1e-9)
    filters = librosa.filters.mel(sr=sr, n_fft=n_fft, n_mels=n_mels, fmin=fmin, fmax=fmax)
    return np.log(np.clip(filters @ magnitude, 1e-5, None)).T


def kaldi_fbank(x, num_bins=80):
    opts = knf.FbankOptions()
    opts.frame_opts.dither = 0
    opts.frame_opts.samp_freq = 16000
    opts.mel_opts.num_bins = num_bins
    fbank = knf.OnlineFbank(opts)
    fbank.accept_waveform(16000, x.tolist())
    fbank.input_finished()
    return np.array([fbank.get_frame(i) for i in range(fbank.num_frames_ready)], dtype=np.float32)


def sweep(sr, seconds, f_start, f_end, amplitude=0.5):
    t = np.arange(int(sr * seconds)) / sr
    k = (f_end / f_start) ** (1 / seconds)
    return (amplitude * np.sin(2 * np.pi * f_start * (k ** t - 1) / np.log(k))).astype(np.float32)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Out(sys.argv[1])

    x16 = speechlike(16000, 2.5, seed=1)
    x24 = speechlike(24000, 2.0, seed=2)
    x22 = speechlike(22050, 1.5, seed=3)
    out.array("input_16k", x16)
    out.array("input_24k", x24)
    out.array("input_22k", x22)

    # STFT: torch/librosa centred reflect; and a short window in a longer FFT without centring.
    re, im = frames_rows(librosa.stft(x16, n_fft=400, hop_length=160, window="hann", center=True, pad_mode="reflect"))
    out.array("stft_400_160_center_real", re)
    out.array("stft_400_160_center_imag", im)
    re, im = frames_rows(librosa.stft(x16, n_fft=512, hop_length=160, win_length=400, window="hamming", center=False))
    out.array("stft_512_160_hamming400_real", re)
    out.array("stft_512_160_hamming400_imag", im)

    # iSTFT (HiFT: n_fft 16, hop 4, centred): random magnitude/phase, as a vocoder would emit.
    rng = np.random.default_rng(4)
    frames = 301
    magnitude = rng.uniform(0, 2, size=(9, frames)).astype(np.float32)
    phase = rng.uniform(-np.pi, np.pi, size=(9, frames)).astype(np.float32)
    spec = magnitude * np.exp(1j * phase)
    spec[0].imag = 0
    spec[-1].imag = 0
    out.array("istft_16_4_real", spec.real.T)
    out.array("istft_16_4_imag", spec.imag.T)
    out.array("istft_16_4_output", librosa.istft(spec, hop_length=4, n_fft=16, window="hann", center=True, length=4 * (frames - 1)))

    # Mel filterbanks.
    out.array("mel_slaney_16k_400_80", librosa.filters.mel(sr=16000, n_fft=400, n_mels=80))
    out.array("mel_slaney_16k_400_128", librosa.filters.mel(sr=16000, n_fft=400, n_mels=128))
    out.array("mel_htk_22k_1024_80_nonorm", librosa.filters.mel(sr=22050, n_fft=1024, n_mels=80, fmin=0, fmax=8000, htk=True, norm=None))
    out.array("mel_slaney_24k_1920_80", librosa.filters.mel(sr=24000, n_fft=1920, n_mels=80, fmin=0, fmax=12000))

    # Generic mel spectrogram (power, HTK, no norm, zero padding).
    out.array("melspec_22k_1024_256_htk", librosa.feature.melspectrogram(
        y=x22, sr=22050, n_fft=1024, hop_length=256, n_mels=80, fmin=0, fmax=8000, htk=True, norm=None,
        center=True, pad_mode="constant", power=2.0).T)

    out.array("whisper_80", whisper_log_mel(x16, 80))
    out.array("whisper_128", whisper_log_mel(x16, 128))
    out.array("matcha_24k", matcha_mel(x24))
    out.array("matcha_24k_fmax8000", matcha_mel(x24, fmax=8000))
    out.array("kaldi_fbank_80", kaldi_fbank(x16))
    out.array("kaldi_fbank_23", kaldi_fbank(x16, num_bins=23))

    # Resampling (python-soxr, HQ = libsoxr SOXR_HQ).
    x44 = speechlike(44100, 1.0, seed=5)
    out.array("input_44k", x44)
    out.array("soxr_44100_16000_hq", soxr.resample(x44, 44100, 16000, quality="HQ"))
    out.array("soxr_24000_16000_hq", soxr.resample(x24, 24000, 16000, quality="HQ"))
    out.array("soxr_16000_22050_vhq", soxr.resample(x16, 16000, 22050, quality="VHQ"))
    # Longer than one 16384-frame piece Warble feeds libsoxr, and more than one DFT block: 6 s at 44.1k.
    x44_long = speechlike(44100, 6.0, seed=6)
    out.array("input_44k_long", x44_long)
    out.array("soxr_44100_16000_hq_long", soxr.resample(x44_long, 44100, 16000, quality="HQ"))
    # Stereo (frames × channels, channels different) and the streaming path in uneven chunks.
    stereo44 = np.stack([x44_long, 0.5 * x44_long[::-1]], axis=1)
    out.array("soxr_stereo_44100_16000_hq", soxr.resample(stereo44, 44100, 16000, quality="HQ"))
    stream = soxr.ResampleStream(44100, 16000, 1, dtype="float32", quality="HQ")
    pieces, start = [], 0
    for size in [1, 100, 4096, 333, 30000, 70000]:
        pieces.append(stream.resample_chunk(x44_long[start:start + size]))
        start += size
    pieces.append(stream.resample_chunk(x44_long[start:], last=True))
    out.array("soxr_stream_44100_16000_hq", np.concatenate(pieces))
    # The round trip the Swift test measures (44.1k → 16k → 44.1k swept sine), through python-soxr.
    sine = sweep(44100, 3.0, 50.0, 7000.0)
    back = soxr.resample(soxr.resample(sine, 44100, 16000, quality="HQ"), 16000, 44100, quality="HQ")
    edge = 4410
    ref, got = sine[edge:-edge].astype(np.float64), back[edge:-edge].astype(np.float64)
    out.scalar("soxr_sweep_roundtrip_snr_db", 10 * np.log10(np.sum(ref ** 2) / np.sum((got - ref) ** 2)))

    # Loudness (ITU-R BS.1770-4 integrated, pyloudnorm).
    stereo = np.stack([x16, 0.5 * x16[::-1]], axis=1)
    out.scalar("lufs_16k_mono", pyloudnorm.Meter(16000).integrated_loudness(x16.astype(np.float64)))
    out.scalar("lufs_16k_stereo", pyloudnorm.Meter(16000).integrated_loudness(stereo.astype(np.float64)))
    out.scalar("lufs_24k_mono", pyloudnorm.Meter(24000).integrated_loudness(x24.astype(np.float64)))

    # Files in other containers, written by libsndfile through soundfile.
    clip = np.stack([x16[:8000], -x16[:8000]], axis=1)
    out.array("file_source_stereo", clip)
    for name, fmt, subtype in [
        ("pcm16.wav", "WAV", "PCM_16"), ("pcm24.wav", "WAV", "PCM_24"), ("float.wav", "WAV", "FLOAT"),
        ("u8.wav", "WAV", "PCM_U8"), ("double.wav", "WAV", "DOUBLE"), ("extensible.wav", "WAVEX", "PCM_16"),
        ("pcm16.flac", "FLAC", "PCM_16"), ("vorbis.ogg", "OGG", "VORBIS"), ("pcm16.aiff", "AIFF", "PCM_16"),
        ("opus.ogg", "OGG", "OPUS"), ("mpeg.mp3", "MP3", "MPEG_LAYER_III"),
    ]:
        path = os.path.join(out.root, name)
        soundfile.write(path, clip, 16000, format=fmt, subtype=subtype)
        decoded, _ = soundfile.read(path, dtype="float32", always_2d=True)
        out.array("decoded_" + name.replace(".", "_"), decoded)
        out.index["files"][name] = {"format": fmt, "subtype": subtype, "sample_rate": 16000, "channels": 2}

    out.finish()


if __name__ == "__main__":
    main()
