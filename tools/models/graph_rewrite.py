"""What the graph fusions (fuse_snake.py, fuse_adain.py) share: who reads a value, swapping matched
chains for Warble's operator nodes, and the command line."""

from __future__ import annotations

import collections
import sys
from typing import Callable

import onnx
from onnx import helper

DOMAIN = "ai.warble"


def consumers(graph: onnx.GraphProto) -> dict[str, list[onnx.NodeProto]]:
    """The nodes reading each value; a node reading a value twice (Mul(d, d)) is listed once."""
    found = collections.defaultdict(list)
    for node in graph.node:
        for name in dict.fromkeys(node.input):
            found[name].append(node)
    return found


def replace_chains(model: onnx.ModelProto, chains: list[tuple[list[onnx.NodeProto], onnx.NodeProto]]) -> int:
    """Drops each chain's nodes and puts its fused node where the chain's last node stood (its inputs
    come earlier, its output keeps its name); declares the ai.warble opset. Returns the count."""
    graph = model.graph
    removed = {id(n) for nodes, _ in chains for n in nodes}
    replacements = {id(nodes[-1]): fused for nodes, fused in chains}
    kept = [replacements.get(id(n), n) for n in graph.node if id(n) not in removed or id(n) in replacements]
    del graph.node[:]
    graph.node.extend(kept)
    if chains and not any(o.domain == DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(DOMAIN, 1))
    return len(chains)


def main(argv: list[str], fuse: Callable[[onnx.ModelProto], int], tool: str, what: str, usage: str) -> int:
    """`tool SRC.onnx DST.onnx`: fuses and saves; exit 1 when nothing was found, 2 on bad arguments."""
    if len(argv) != 3:
        print(usage, file=sys.stderr)
        return 2
    model = onnx.load(argv[1])
    count = fuse(model)
    if count == 0:
        print(f"{tool}: no {what} found in {argv[1]}", file=sys.stderr)
        return 1
    onnx.save(model, argv[2])
    print(f"{tool}: {count} {what} fused into {argv[2]}")
    return 0
