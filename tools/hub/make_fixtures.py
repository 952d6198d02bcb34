#!/usr/bin/env python3
"""Fixtures for the model-pull tests (Tests/WarbleHubTests): OUTDIR/tree, laid out as the Hub's
rhasspy/piper-voices with the installed default voice (piper-en_US-joe-medium from scripts/setup.sh)
and en_US-fake-medium, 4 MB of seeded random bytes with the same configuration (quick transfers for
the fault tests), and en_US-twospeakers-medium, the two-speaker voice tools/voices/make_fixtures.py
makes from the default voice (speakers alice and bob, bob 1.5 times as loud); and as onnx-community/Kokoro-82M-v1.0-ONNX from the installed kokoro-v1.0-int8
(make_kokoro_repo.py; jm_kumo's table also as am_kumo); and as Systran/faster-whisper-tiny.en from the
CTranslate2 files tools/whisper/install.sh keeps in $WARBLE_HOME/cache/whisper-ct2/whisper-tiny.en;
and as Systran/faster-whisper-large-v3 and mobiuslabsgmbh/faster-whisper-large-v3-turbo with the random miniatures of
tools/whisper/random_large.py (seeded; faster-whisper's transcripts are in Tests/Fixtures/generated/whisper/large);
and the seed families' repositories laid out as the catalogue (Sources/WarbleHub/Catalogue/models.json)
says: ayousanz/cosy-voice3-onnx with tools/cosyvoice3's synthetic graphs (the real names, types and
shapes: the fp16 files only, its tokenizer under tokenizer/), which Warble runs;
ResembleAI/chatterbox-turbo-ONNX with tools/chatterbox's synthetic graphs (fp32 and q4f16 with their
sidecars, and its tokenizer), which Warble runs; neuphonic/neutts-nano (with its backbone already in
ONNX), neuphonic/neutts-nano-german (safetensors only, converted on pull) and
neuphonic/neucodec-onnx-decoder(-int8) with tools/neutts's synthetic graphs;
csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17 with tools/sensevoice's synthetic export;
csukuangfj/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3 and its -int8 with tools/parakeet's; and, with small seeded
random files (their layouts, not their networks, are under test): chatterbox's fp16 files (an
.onnx_data beside three of the four). someone/joe-voice holds the default voice as one repository
(voice/en_US-joe-medium.onnx and .onnx.json), for hf:OWNER/REPO --family piper. Helsinki-NLP/opus-mt-en-de
and opus-mt-tc-big-en-fr are tools/marian/make_opus_fixtures.py's tiny Opus-MT checkpoints (its goldens
in OUTDIR/opus-goldens).
tools/hub/hub_server.py serves it.

    make_fixtures.py OUTDIR
"""

import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The areas whose output (Tests/Fixtures/generated/AREA) this maker reads: tools/fixtures/make_all.py makes them
# first and starts this one only when they are done. Run alone, it makes a missing one itself.
READS = ("chatterbox", "cosyvoice3", "marian", "neutts", "parakeet", "sensevoice")


def warble_home():
    home = os.environ.get("WARBLE_HOME")
    if home:
        return home
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "warble")


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    out = argv[0]
    model = os.path.join(warble_home(), "models", "piper-en_US-joe-medium", "model.onnx")
    if not os.path.isfile(model):
        sys.exit(f"hub fixtures: {model} is missing; run scripts/setup.sh")
    tree = os.path.join(out, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    from pathlib import Path

    from tools.voices import make_fixtures as voice_fixtures  # tools/voices/make_fixtures.py

    model_dir = Path(model).parent
    two = Path(out) / "two-speakers"
    config = json.loads((model_dir / "config.json").read_text())
    voice_fixtures.write_two_speakers(model_dir, config, two, 2, "Two speakers share one voice.")
    subprocess.run([sys.executable, os.path.join(HERE, "make_piper_repo.py"), tree, f"{model}=en_US-joe-medium",
                    f"{two / 'two-speakers.onnx'}=en_US-twospeakers-medium",
                    "--fake", "en_US-fake-medium=4000000"], check=True)
    subprocess.run([sys.executable, os.path.join(HERE, "make_kokoro_repo.py"), tree,
                    os.path.join(warble_home(), "models", "kokoro-v1.0-int8"), "--as-voice", "jm_kumo=am_kumo"], check=True)
    ct2 = os.path.join(warble_home(), "cache", "whisper-ct2", "whisper-tiny.en")
    systran = os.path.join(tree, "Systran", "faster-whisper-tiny.en")
    os.makedirs(systran)
    for name in ("model.bin", "config.json", "tokenizer.json", "vocabulary.txt"):
        source = os.path.join(ct2, name)
        if not os.path.isfile(source):
            sys.exit(f"hub fixtures: {source} is missing; run tools/whisper/install.sh whisper-tiny.en")
        try:
            os.link(source, os.path.join(systran, name))
        except OSError:
            shutil.copyfile(source, os.path.join(systran, name))
    # Whisper large-v3 and its turbo: tools/whisper/random_large.py's miniatures (seeded: the same bytes as the ones
    # tools/whisper/make_fixtures.py transcribes with faster-whisper), which Warble converts and runs.
    large = os.path.join(out, "whisper-large")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "whisper", "random_large.py"), large, "--repos-only"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    copy_tree(os.path.join(large, "repos"), tree)
    shutil.rmtree(large)
    make_seed_repos(tree, seed_graphs(out, "cosyvoice3", "campplus.onnx"), seed_graphs(out, "chatterbox", "tokenizer.json"),
                    seed_graphs(out, "neutts", "../standard-layout/model.onnx"), seed_graphs(out, "sensevoice", "model.onnx"),
                    seed_graphs(out, "parakeet", "encoder.onnx"))
    # Opus-MT: tools/marian's two tiny checkpoints as Helsinki-NLP publishes them (pytorch_model.bin only;
    # float16 model.safetensors only), with transformers' goldens beside the tree (OUTDIR/opus-goldens).
    opus = os.path.join(area_output(out, "marian"), "opus")
    if not os.path.isfile(os.path.join(opus, "goldens", "opus-mt-tc-big-en-fr.json")):
        subprocess.run([sys.executable, os.path.join(HERE, "..", "marian", "make_opus_fixtures.py"), opus], check=True,
                       stdout=subprocess.DEVNULL)
    copy_tree(os.path.join(opus, "repos"), tree)
    shutil.rmtree(os.path.join(out, "opus-goldens"), ignore_errors=True)
    shutil.copytree(os.path.join(opus, "goldens"), os.path.join(out, "opus-goldens"))
    joe = os.path.join(tree, "someone", "joe-voice", "voice")
    os.makedirs(joe)
    for source, name in ((model, "en_US-joe-medium.onnx"), (os.path.join(model_dir, "config.json"), "en_US-joe-medium.onnx.json")):
        try:
            os.link(source, os.path.join(joe, name))
        except OSError:
            shutil.copyfile(source, os.path.join(joe, name))
    return 0


def random_file(path, size, seed):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(random.Random(seed).randbytes(size))


def area_output(out, area):
    """OUTDIR/../AREA, another area's output; AREA must be in READS, so that make_all.py makes it before this maker."""
    if area not in READS:
        sys.exit(f"hub fixtures: {area} is read but not in READS")
    return os.path.join(os.path.dirname(os.path.abspath(out)), area)


def seed_graphs(out, area, marker):
    """tools/AREA's synthetic graphs (OUTDIR/../AREA/repo, made now if MARKER is missing)."""
    made = area_output(out, area)
    repo = os.path.join(made, "repo")
    if not os.path.isfile(os.path.join(repo, marker)):
        subprocess.run([sys.executable, os.path.join(HERE, "..", area, "make_fixtures.py"), made],
                       check=True, stdout=subprocess.DEVNULL)
    return repo


def copy_tree(source, target, skip=()):
    for folder, _, names in os.walk(source):
        for name in names:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, source)
            if relative.split(os.sep)[0] in skip:
                continue
            os.makedirs(os.path.dirname(os.path.join(target, relative)), exist_ok=True)
            shutil.copyfile(path, os.path.join(target, relative))


def make_seed_repos(tree, cosy_graphs, chatter_graphs, neutts_repo, sensevoice_repo, parakeet_repo):
    catalogue = json.load(open(os.path.join(HERE, "..", "..", "Sources", "WarbleHub", "Catalogue", "models.json")))
    entries = {m["id"]: m for m in catalogue["models"]}
    cosy = entries["cosyvoice3"]
    root = os.path.join(tree, *cosy["repo"].split("/"))
    os.makedirs(os.path.join(root, "tokenizer"))
    for name in cosy["files"] + cosy["variants"]["fp16"]["files"]:
        shutil.copyfile(os.path.join(cosy_graphs, name), os.path.join(root, name))
    for group in cosy["oneOf"]:  # the tokenizer/ layout
        shutil.copyfile(os.path.join(cosy_graphs, os.path.basename(group[-1])), os.path.join(root, group[-1]))
    random_file(os.path.join(root, "README.md"), 300, "cosy-readme")
    chatter = entries["chatterbox-turbo"]
    root = os.path.join(tree, *chatter["repo"].split("/"))
    fp16 = chatter["variants"]["fp16"]
    # fp16: seeded random files (one sidecar missing); fp32 and q4f16 and the tokenizer: tools/chatterbox's
    # synthetic graphs, which Warble runs.
    for i, name in enumerate(fp16["files"] + fp16["optional"][:3]):
        random_file(os.path.join(root, name), 11_000 + i, f"chatter-{name}")
    copy_tree(chatter_graphs, root)
    # NeuCodec: tools/neutts's toy decoders, F·480 samples (fp32) and (F−1)·480 (int8's repository).
    # NeuTTS Nano: tools/neutts's repository with its backbone already in ONNX; the German Nano is the
    # same repository as the authors publish theirs, safetensors only, converted on pull.
    made = os.path.dirname(neutts_repo)
    codec = entries["neucodec"]
    copy_tree(os.path.join(made, "codec"), os.path.join(tree, *codec["repo"].split("/")))
    copy_tree(os.path.join(made, "codec-short"), os.path.join(tree, *codec["variants"]["int8"]["repo"].split("/")))
    nano = os.path.join(tree, *entries["neutts-nano"]["repo"].split("/"))
    copy_tree(neutts_repo, nano)
    # Its ONNX backbone in the standard export layout (logits for every position), as an export made
    # elsewhere gives it; the German one converted on pull gets the converter's (the last position's).
    for name in ("model.onnx", "model.onnx_data"):
        shutil.copyfile(os.path.join(made, "standard-layout", name), os.path.join(nano, "onnx", name))
    copy_tree(neutts_repo, os.path.join(tree, *entries["neutts-nano-german"]["repo"].split("/")), skip=("onnx",))
    # SenseVoice Small: tools/sensevoice's synthetic export (model.onnx, model.int8.onnx, tokens.txt), which Warble runs.
    copy_tree(sensevoice_repo, os.path.join(tree, *entries["sensevoice-small"]["repo"].split("/")))
    # Parakeet TDT 0.6B v3: tools/parakeet's synthetic export (encoder.onnx + encoder.weights, decoder.onnx, joiner.onnx,
    # tokens.txt; the int8 repository's *.int8.onnx), which Warble runs.
    parakeet = entries["parakeet-tdt-0.6b-v3"]
    copy_tree(parakeet_repo, os.path.join(tree, *parakeet["repo"].split("/")))
    copy_tree(parakeet_repo + "-int8", os.path.join(tree, *parakeet["variants"]["int8"]["repo"].split("/")))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
