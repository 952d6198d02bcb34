"""Renames one input of an ONNX graph in place of another, keeping its external data where it is:
`warble models check`'s negative case (a re-export that names an input differently).

Usage: rename_input.py SOURCE TARGET [OLD NEW]   (default: audio_values -> input_values)
TARGET may be SOURCE; the graph's .onnx_data stays beside it, untouched.
"""
import sys

import onnx


def rename_input(source, target, old="audio_values", new="input_values"):
    model = onnx.load(str(source), load_external_data=False)
    names = [i.name for i in model.graph.input]
    if old not in names:
        raise SystemExit(f"{source} has no input {old!r} (inputs: {', '.join(names)})")
    for graph_input in model.graph.input:
        if graph_input.name == old:
            graph_input.name = new
    for node in model.graph.node:
        node.input[:] = [new if name == old else name for name in node.input]
    onnx.save(model, str(target))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 5):
        raise SystemExit(__doc__)
    rename_input(*sys.argv[1:])
