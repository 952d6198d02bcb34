#!/usr/bin/env python3
"""Lays out Piper voices as the Hub's rhasspy/piper-voices repository, for the imitation to serve.

    make_piper_repo.py ROOT MODEL.onnx[=KEY] [MODEL.onnx[=KEY] ...] [--fake KEY=BYTES ...] [--gated-copy OWNER/NAME]

Each MODEL.onnx needs its Piper configuration beside it (MODEL.onnx.json, or config.json in the same
directory: the layout of Warble's model store). KEY (default: the file name without .onnx, which
must then look like en_US-joe-medium) is the catalogue key {locale}-{name}-{quality}. Writes
ROOT/rhasspy/piper-voices/{family}/{locale}/{name}/{quality}/{KEY}.onnx, .onnx.json and MODEL_CARD,
and voices.json with the fields Piper's own catalogue has (key, name, language{code, family, region,
name_native, name_english, country_english}, quality, num_speakers, speaker_id_map,
files{path: {size_bytes, md5_digest}}, aliases), computed from the files. Standard library only.
--fake KEY=BYTES adds a voice whose model is BYTES seeded random bytes (not a network: for testing
transfers quickly) with the first voice's configuration. With --gated-copy, the same files also go into ROOT/OWNER/NAME (start the imitation with --gated
OWNER/NAME to serve it as a gated repository).
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import sys

CARD = """# Model card for {name} ({quality})

* Language: {code}
* Speakers: {speakers}
* Quality: {quality}
* Samplerate: {rate}Hz

## Dataset

* URL: https://example.org/dataset
* License: CC0-1.0 (test layout made by tools/hub/make_piper_repo.py)
"""


def md5_of(path):
    digest = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def config_of(model):
    config_path = model + ".json"
    if not os.path.isfile(config_path):
        config_path = os.path.join(os.path.dirname(model), "config.json")
    return config_path


def add_voice(repo, model, key, catalogue, config_path=None):
    config_path = config_path or config_of(model)
    if not os.path.isfile(config_path):
        sys.exit(f"make_piper_repo: {model} has no {os.path.basename(model)}.json or config.json beside it")
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    try:
        code, name, quality = key.split("-", 2)
    except ValueError:
        sys.exit(f"make_piper_repo: key '{key}' is not LOCALE-NAME-QUALITY")
    family, _, region = code.partition("_")
    directory = f"{family}/{code}/{name}/{quality}"
    os.makedirs(os.path.join(repo, directory), exist_ok=True)
    files = {}
    for suffix, source in ((".onnx", model), (".onnx.json", config_path)):
        relative = f"{directory}/{key}{suffix}"
        shutil.copyfile(source, os.path.join(repo, relative))
    speakers = int(config.get("num_speakers", 1) or 1)
    with open(os.path.join(repo, directory, "MODEL_CARD"), "w", encoding="utf-8") as f:
        f.write(CARD.format(name=name, quality=quality, code=code, speakers=speakers,
                            rate=config.get("audio", {}).get("sample_rate", 22050)))
    for relative in (f"{directory}/{key}.onnx", f"{directory}/{key}.onnx.json", f"{directory}/MODEL_CARD"):
        full = os.path.join(repo, relative)
        files[relative] = {"size_bytes": os.path.getsize(full), "md5_digest": md5_of(full)}
    language = config.get("language", {})
    catalogue[key] = {
        "key": key, "name": name, "quality": quality, "num_speakers": speakers,
        "speaker_id_map": config.get("speaker_id_map", {}) if speakers > 1 else {},
        "language": {"code": code, "family": family, "region": region,
                     "name_native": language.get("name_native", family),
                     "name_english": language.get("name_english", family),
                     "country_english": language.get("country_english", region)},
        "files": files, "aliases": [],
    }


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root")
    parser.add_argument("models", nargs="+", help="MODEL.onnx or MODEL.onnx=KEY")
    parser.add_argument("--fake", action="append", default=[], help="KEY=BYTES")
    parser.add_argument("--gated-copy")
    args = parser.parse_args(argv)
    repo = os.path.join(args.root, "rhasspy", "piper-voices")
    os.makedirs(repo, exist_ok=True)
    catalogue = {}
    for spec in args.models:
        model, _, key = spec.partition("=")
        add_voice(repo, model, key or os.path.basename(model)[:-len(".onnx")], catalogue)
    for spec in args.fake:
        key, _, size = spec.partition("=")
        fake = os.path.join(args.root, f".{key}.onnx")
        rng = random.Random(key)
        with open(fake, "wb") as f:
            f.write(rng.randbytes(int(size)))
        first = args.models[0].partition("=")[0]
        add_voice(repo, fake, key, catalogue, config_of(first))
        os.remove(fake)
    with open(os.path.join(repo, "voices.json"), "w", encoding="utf-8") as f:
        json.dump(catalogue, f, indent=2, ensure_ascii=False)
    if args.gated_copy:
        target = os.path.join(args.root, *args.gated_copy.split("/"))
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(repo, target)
    print(f"make_piper_repo: {len(catalogue)} voice(s) in {repo}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
