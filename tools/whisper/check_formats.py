#!/usr/bin/env python3
"""Checks convert_ct2.py on every model.bin layout and weight type it claims to read.

    check_formats.py [MODEL_ID] [--threads N]        (default whisper-tiny.en)

Rewrites the installed ct2 model ($WARBLE_HOME/cache/whisper-ct2/<id>/model.bin) in other binary
versions and weight types, converts each, and compares ONNX Runtime with ctranslate2 loading the same
rewritten file (compute_type float32): encoder max abs error < 1e-3, per-step logits < 1e-3 and
identical greedy tokens. Then feeds corrupt files to the reader and prints the errors it gives.
Exits 1 when anything is off.
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import sys
import tempfile


import numpy as np

from tools.whisper.check_parity import model_paths, prompt_for, window_features
from tools.whisper.clips import CLIPS, make_clips, read_wav
from tools.whisper.convert_ct2 import convert
from tools.whisper.ct2_model import DTYPES, Ct2FormatError, read_model
from tools.whisper.ort_whisper import OrtWhisper

DTYPE_IDS = {name: i for i, (name, _) in DTYPES.items()}
LEGACY_SIZES = {"float32": 4, "int16": 2, "int8": 1}


def _string(s: str) -> bytes:
    raw = s.encode() + b"\0"
    return struct.pack("<H", len(raw)) + raw


def write_model(path: str, version: int, variables: list[tuple[str, str, np.ndarray]], aliases: dict[str, str],
                spec: str = "WhisperSpec", revision: int = 3) -> None:
    out = [struct.pack("<I", version)]
    if version >= 2:
        out += [_string(spec), struct.pack("<I", revision)]
    out.append(struct.pack("<I", len(variables)))
    for name, dtype, array in sorted(variables, key=lambda v: v[0]):
        out += [_string(name), struct.pack("<B", array.ndim), struct.pack(f"<{array.ndim}I", *array.shape)]
        if version >= 4:
            out.append(struct.pack("<BI", DTYPE_IDS[dtype], array.nbytes))
        else:
            out.append(struct.pack("<BI", LEGACY_SIZES[dtype], array.size))
        out.append(np.ascontiguousarray(array).tobytes())
    if version >= 3:
        out.append(struct.pack("<I", len(aliases)))
        for alias, target in aliases.items():
            out += [_string(alias), _string(target)]
    with open(path, "wb") as f:
        f.write(b"".join(out))


def to_bf16(x: np.ndarray) -> np.ndarray:
    bits = x.astype(np.float32).view(np.uint32)
    rounded = bits + 0x7FFF + ((bits >> 16) & 1)  # round to nearest even
    return (rounded >> 16).astype("<u2")


def quantize(x: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """ctranslate2's symmetric quantisation, q = round(x * scale): int8 per row (scale = 127 / max|row|),
    int16 per layer (one scalar scale = 32767 / max|x|)."""
    qmax = 127.0 if bits == 8 else 32767.0
    amax = np.abs(x).max(axis=1) if bits == 8 else np.abs(x).max()
    scale = np.asarray(np.where(amax > 0, qmax / np.maximum(amax, 1e-30), 1.0), dtype=np.float32)
    q = np.clip(np.round(x * (scale[:, None] if bits == 8 else scale)), -qmax, qmax)
    return q.astype(np.int8 if bits == 8 else "<i2"), scale


def variant(model, weights: str, version: int) -> tuple[list, dict]:
    """weights: float32 | float16 | bfloat16 | int8 | int16 (quantising the 2-D */weight variables)."""
    variables, aliases = [], dict(model.aliases)
    for name, var in model.variables.items():
        data = var.data
        if var.dtype in ("float16", "bfloat16", "float32") and var.data.ndim > 0:
            f32 = var.as_float32()
            if weights in ("int8", "int16") and name.endswith("/weight") and f32.ndim == 2:
                q, scale = quantize(f32, 8 if weights == "int8" else 16)
                variables += [(name, weights, q), (name + "_scale", "float32", scale)]
                continue
            if weights == "bfloat16":
                variables.append((name, "bfloat16", to_bf16(f32)))
            elif weights == "float16":
                variables.append((name, "float16", f32.astype("<f2")))
            else:
                variables.append((name, "float32", f32))
            continue
        if version < 4 and var.dtype not in LEGACY_SIZES:
            # Old layouts only know 4-, 2- and 1-byte items (read back as float32, int16, int8).
            data = data.astype(np.int8) if var.dtype == "int8" else data.astype("<i2")
            variables.append((name, "int8" if data.dtype == np.int8 else "int16", data))
            continue
        variables.append((name, var.dtype, data))
    if version < 3:  # no alias table: store the tied projection as its own variable
        names = {v[0]: v for v in variables}
        for alias, target in aliases.items():
            for suffix in ("", "_scale"):
                if target + suffix in names:
                    _, dtype, data = names[target + suffix]
                    variables.append((alias + suffix, dtype, data))
        aliases = {}
    return variables, aliases


CASES = [(6, "float16"), (6, "int8"), (5, "bfloat16"), (5, "float32"), (4, "int16"), (3, "float32"), (3, "int8"),
         (2, "float32")]


def check_variants(model_id: str, threads: int, tmp: str) -> bool:
    import ctranslate2
    from faster_whisper import WhisperModel

    _, ct2_dir = model_paths(model_id)
    source = read_model(os.path.join(ct2_dir, "model.bin"))
    clip = make_clips(os.path.join(tmp, "clips"), [c for c in CLIPS if c[0] == "en_fox"])[0]
    audio = read_wav(clip["path"])
    ok = True
    print(f"{'version':>7} {'weights':<9} {'model.bin MB':>12} {'onnx MB':>8} {'enc max|d|':>11} "
          f"{'logit max|d|':>13} tokens")
    for version, weights in CASES:
        src = os.path.join(tmp, f"v{version}-{weights}")
        os.makedirs(src, exist_ok=True)
        for name in ("config.json", "vocabulary.txt", "tokenizer.json"):
            shutil.copyfile(os.path.join(ct2_dir, name), os.path.join(src, name))
        variables, aliases = variant(source, weights, version)
        write_model(os.path.join(src, "model.bin"), version, variables, aliases)
        out = os.path.join(tmp, f"v{version}-{weights}-onnx")
        try:
            convert(src, out, model_id, model_id, "check_formats")
        except Exception as error:  # noqa: BLE001 - report and continue with the other cases
            print(f"{version:>7} {weights:<9} conversion failed: {error}")
            ok = False
            continue
        ours = OrtWhisper(out, threads)
        fw = WhisperModel(src, device="cpu", compute_type="float32", cpu_threads=threads)
        mel = window_features(fw, audio)
        encoded = ours.encode(mel)
        ref_enc = np.array(fw.model.encode(ctranslate2.StorageView.from_array(mel[None]), to_cpu=True))
        enc_err = float(np.max(np.abs(encoded["hidden"] - ref_enc)))
        prompt = prompt_for(ours.config, "en", "transcribe")
        ref = fw.model.generate(ctranslate2.StorageView.from_array(ref_enc), [prompt], beam_size=1,
                                return_logits_vocab=True, suppress_blank=True,
                                suppress_tokens=ours.config["suppress_ids"], max_length=448)[0]
        forced = ref.sequences_ids[0] + [ours.config["special_tokens"]["eot"]]
        _, logits = ours.greedy(encoded, prompt, forced=forced)
        logit_err = max(float(np.max(np.abs(a[np.array(b) > -1e30] - np.array(b)[np.array(b) > -1e30])))
                        for a, b in zip(logits, ref.logits[0]))
        greedy, _ = ours.greedy(encoded, prompt)
        same = greedy == ref.sequences_ids[0]
        bin_mb = os.path.getsize(os.path.join(src, "model.bin")) / 1e6
        onnx_mb = sum(os.path.getsize(os.path.join(out, f)) for f in ("encoder.onnx", "decoder.onnx")) / 1e6
        print(f"{version:>7} {weights:<9} {bin_mb:>12.1f} {onnx_mb:>8.1f} {enc_err:>11.2e} {logit_err:>13.2e} "
              f"{'same' if same else 'DIFF'}")
        ok &= same and enc_err < 1e-3 and logit_err < 1e-3
        shutil.rmtree(src)
        shutil.rmtree(out)
    return ok


def check_corruption(model_id: str, tmp: str) -> bool:
    _, ct2_dir = model_paths(model_id)
    with open(os.path.join(ct2_dir, "model.bin"), "rb") as f:
        good = f.read()
    first_dtype = 4 + 2 + len("WhisperSpec") + 1 + 4 + 4 + 2 + len("decoder/activation") + 1 + 1
    cases = {
        "truncated": good[: len(good) // 2],
        "empty": b"",
        "version 7": struct.pack("<I", 7) + good[4:],
        "not ct2": b"PK\x03\x04" + good[4:100],
        "other spec": good[:6] + b"T" + good[7:],
        "dtype 9": good[:first_dtype] + b"\x09" + good[first_dtype + 1:],
        "byte count": good[:first_dtype + 1] + struct.pack("<I", 2) + good[first_dtype + 5:],
        "trailing bytes": good + b"\0\0\0\0",
    }
    ok = True
    for label, data in cases.items():
        path = os.path.join(tmp, "corrupt.bin")
        with open(path, "wb") as f:
            f.write(data)
        try:
            read_model(path)
            print(f"  {label:<15} NOT DETECTED")
            ok = False
        except Ct2FormatError as error:
            print(f"  {label:<15} {str(error).replace(path, 'model.bin')}")
    return ok


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", nargs="?", default="whisper-tiny.en")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        ok = check_variants(args.model, args.threads, tmp)
        print("corrupt files:")
        ok &= check_corruption(args.model, tmp)
    print("formats:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
