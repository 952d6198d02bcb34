#!/usr/bin/env python3
"""Lays out an installed Kokoro v1.0 model as the Hub's onnx-community/Kokoro-82M-v1.0-ONNX, for the
imitation (tools/hub/hub_server.py) to serve.

    make_kokoro_repo.py ROOT KOKORO_MODEL_DIR [--as-voice SOURCE=NAME ...]

KOKORO_MODEL_DIR is Warble's kokoro-v1.0-int8 install (model.onnx from kokoro-onnx, vocab.json,
voices/*.f32). Writes ROOT/onnx-community/Kokoro-82M-v1.0-ONNX/ with onnx-community's public layout:
  onnx/model_quantized.onnx   the int8 model with onnx-community's tensor names (input `input_ids`
                              instead of kokoro-onnx's `tokens`, output `waveform` instead of `audio`)
  tokenizer.json              the symbol vocabulary as a WordLevel tokenizer (`model.vocab`)
  config.json                 `model_type` and the vocabulary
  voices/NAME.bin             raw little-endian float32 [510, 256] (the .f32 tables, byte for byte)
The voices keep their names (jf_*, jm_*: Japanese by Kokoro's prefix rule); --as-voice adds a copy of
one table under another name (e.g. jm_kumo=am_kumo: the same table as an American-English voice, so
that a test hears English from a table we have). Needs the `onnx` package (the tools environment, scripts/python-env.sh).
"""

import argparse
import json
import os
import shutil
import sys

import onnx


def rename(model: onnx.ModelProto, old: str, new: str) -> None:
    graph = model.graph
    for value in list(graph.input) + list(graph.output):
        if value.name == old:
            value.name = new
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new
        for i, name in enumerate(node.output):
            if name == old:
                node.output[i] = new


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root")
    parser.add_argument("source")
    parser.add_argument("--as-voice", action="append", default=[])
    args = parser.parse_args(argv)
    repo = os.path.join(args.root, "onnx-community", "Kokoro-82M-v1.0-ONNX")
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(os.path.join(repo, "onnx"))
    os.makedirs(os.path.join(repo, "voices"))
    model = onnx.load(os.path.join(args.source, "model.onnx"))
    inputs = [i.name for i in model.graph.input]
    outputs = [o.name for o in model.graph.output]
    if "tokens" not in inputs or len(outputs) != 1:
        sys.exit(f"make_kokoro_repo: {args.source}/model.onnx is not kokoro-onnx's v1.0 (inputs {inputs}, outputs {outputs})")
    rename(model, "tokens", "input_ids")
    rename(model, outputs[0], "waveform")
    onnx.save(model, os.path.join(repo, "onnx", "model_quantized.onnx"))
    with open(os.path.join(args.source, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)["vocab"]
    tokenizer = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
                 "normalizer": None, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": ""}, "behavior": "Isolated", "invert": False},
                 "post_processor": None, "decoder": None,
                 "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "$"}}
    with open(os.path.join(repo, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer, f, ensure_ascii=False, indent=1)
    with open(os.path.join(repo, "config.json"), "w", encoding="utf-8") as f:
        json.dump({"model_type": "style_text_to_speech_2", "vocab": vocab}, f, ensure_ascii=False, indent=1)
    voices = os.path.join(args.source, "voices")
    for name in sorted(os.listdir(voices)):
        if name.endswith(".f32"):
            shutil.copyfile(os.path.join(voices, name), os.path.join(repo, "voices", name[:-4] + ".bin"))
    for spec in args.as_voice:
        source, _, name = spec.partition("=")
        shutil.copyfile(os.path.join(voices, source + ".f32"), os.path.join(repo, "voices", name + ".bin"))
    print(f"make_kokoro_repo: {repo}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
