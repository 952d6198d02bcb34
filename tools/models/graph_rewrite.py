"""What the graph fusions (fuse_snake.py, fuse_adain.py) share: an index of who makes and reads each
value, swapping matched chains for Warble's operator nodes, and the command line."""

from __future__ import annotations

import collections
import sys
from typing import Callable

import numpy as np
import onnx
from onnx import helper, numpy_helper

DOMAIN = "ai.warble"


class GraphIndex:
    """Initialisers, producers and readers of a graph's values, as a fusion looks them up."""

    def __init__(self, graph: onnx.GraphProto):
        self.inits = {t.name: t for t in graph.initializer}
        self.producer = {o: n for n in graph.node for o in n.output}
        self.outputs = {o.name for o in graph.output}
        self.consumers = collections.defaultdict(list)
        for node in graph.node:
            for name in dict.fromkeys(node.input):  # a node reading a value twice (Mul(d, d)) counts once
                self.consumers[name].append(node)

    def users(self, value: str) -> list[onnx.NodeProto]:
        """The nodes reading `value`; none for a graph output (it must be kept as it is)."""
        return [] if value in self.outputs else self.consumers.get(value, [])

    def only(self, value: str, op: str) -> onnx.NodeProto | None:
        """The one node reading `value` when it is an `op`, else None."""
        found = self.users(value)
        return found[0] if len(found) == 1 and found[0].op_type == op else None

    def constant(self, name: str) -> np.ndarray | None:
        return numpy_helper.to_array(self.inits[name]) if name in self.inits else None


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
