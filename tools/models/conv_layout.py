"""Rewrites 1-D convolutions as 2-D ones (height 1), so that ONNX Runtime's CPU provider runs them with
its blocked NCHWc kernels, which it only applies to 4-D tensors.

The arithmetic is the same (a kernel of height 1 over an input of height 1); only the order of the
float additions inside a convolution changes, so outputs differ by float noise. Measured on Piper
en_US-joe-medium's decoder, one thread, ORT 1.31.1: 0.67x the time of the 1-D graph.

graph_to_4d(graph) runs the whole graph in 4-D: the 3-D input gets one Unsqueeze, convolutions and
transposed convolutions become 2-D, element-wise nodes (with scalar constants) are kept as they are,
and a final Unsqueeze at axis 1 (Piper's output [1, 1, 1, T]) becomes an Identity. No layout
changes between convolutions, so ORT keeps NCHWc from one to the next. Refuses any other node.

keep_blocked(graph) then keeps the residual stream in NCHWc between convolutions too. ORT's NCHWc pass
carries a tensor through Add, Relu, Sigmoid and Tanh but not through LeakyRelu, Div or ConvTranspose:
before it, each of those took a ReorderOutput and the next convolution a ReorderInput (Piper's decoder:
34 reorders, 10 % of a run, and its 24 Adds on plain tensors). Each LeakyRelu gets a depthwise 1x1
convolution of weight 1 in front, which ORT fuses with it (a blocked convolution with a LeakyRelu
activation); a Div by a scalar constant feeding only a LeakyRelu becomes that convolution's weight
(1/c: lrelu(x/c) = lrelu(x)/c for c > 0, one rounding different); each ConvTranspose's output goes
through the same identity convolution, so that what reads it (the Adds of the residual blocks) finds it
blocked. The depthwise passes cost one multiply a sample.
"""
from collections import defaultdict

import numpy as np
from onnx import helper, numpy_helper

AXIS = "conv_layout_axis2"
ELEMENTWISE = {"Add", "Sub", "Mul", "Div", "LeakyRelu", "Relu", "Tanh", "Sigmoid"}


def _attributes(node) -> dict:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _as_2d(node, inputs, outputs, initializers) -> object:
    """The 2-D form of a 1-D Conv or ConvTranspose node (its weight initializer is reshaped in place)."""
    weight = initializers[node.input[1]]
    array = numpy_helper.to_array(weight)
    if array.ndim != 3:
        raise ValueError(f"{node.name}: weight {node.input[1]} has shape {array.shape}, expected 3-D")
    weight.CopyFrom(numpy_helper.from_array(array[:, :, None, :], node.input[1]))
    attributes = {}
    for name, value in _attributes(node).items():
        if name == "pads":
            attributes[name] = [0, value[0], 0, value[1]]
        elif name in ("kernel_shape", "strides", "dilations", "output_padding"):
            attributes[name] = [1 if name != "output_padding" else 0] + list(value)
        elif name == "auto_pad":
            if value not in (b"NOTSET", "NOTSET"):
                raise ValueError(f"{node.name}: auto_pad {value!r} is not supported")
        elif name == "output_shape":
            raise ValueError(f"{node.name}: output_shape is not supported")
        else:
            attributes[name] = value
    return helper.make_node(node.op_type, inputs, outputs, name=node.name, **attributes)


def _is_1d(node, initializers) -> bool:
    return (node.op_type in ("Conv", "ConvTranspose") and node.input[1] in initializers
            and len(initializers[node.input[1]].dims) == 3)


def _finish(graph, nodes) -> None:
    graph.initializer.append(numpy_helper.from_array(np.array([2], dtype=np.int64), AXIS))
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for node in nodes for name in node.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    # Shapes recorded for the old 3-D tensors no longer hold.
    del graph.value_info[:]


def graph_to_4d(graph) -> int:
    """Runs a convolutional graph (one 3-D input) in 4-D throughout; returns the convolutions rewritten."""
    if len(graph.input) != 1 or len(graph.output) != 1:
        raise ValueError("graph_to_4d needs a graph with one input and one output")
    initializers = {i.name: i for i in graph.initializer}
    source = graph.input[0].name
    renamed = {source: source + "/4d"}
    nodes = [helper.make_node("Unsqueeze", [source, AXIS], [renamed[source]], name="conv_layout/input")]
    output = graph.output[0].name
    count = 0
    output_kept = False
    for node in graph.node:
        inputs = [renamed.get(name, name) for name in node.input]
        if _is_1d(node, initializers):
            nodes.append(_as_2d(node, inputs, list(node.output), initializers))
            count += 1
        elif node.op_type in ELEMENTWISE:
            for name in node.input:
                if name in initializers and len(initializers[name].dims) > 0:
                    raise ValueError(f"{node.name}: {name} is not a scalar and would broadcast differently in 4-D")
            nodes.append(node)
        elif node.op_type == "Unsqueeze" and node.output[0] == output:
            axes = numpy_helper.to_array(initializers[node.input[1]]).tolist() if len(node.input) > 1 else []
            if axes != [1]:
                raise ValueError(f"{node.name}: final Unsqueeze on axes {axes}, expected [1]")
            nodes.append(helper.make_node("Identity", [inputs[0]], [output], name=node.name))
            output_kept = True
        else:
            raise ValueError(f"{node.op_type} node {node.name} is not supported by graph_to_4d")
    if not output_kept:
        raise ValueError("the graph does not end in Unsqueeze(axes=[1]); its output would change rank in 4-D")
    _finish(graph, nodes)
    return count


def _output_channels(node, initializers) -> int | None:
    if node.op_type not in ("Conv", "ConvTranspose") or node.input[1] not in initializers:
        return None
    dims = list(initializers[node.input[1]].dims)
    group = _attributes(node).get("group", 1)
    return dims[0] if node.op_type == "Conv" else dims[1] * group


def _scalar(name, initializers) -> float | None:
    if name not in initializers:
        return None
    value = numpy_helper.to_array(initializers[name])
    return float(value.reshape(-1)[0]) if value.size == 1 else None


def keep_blocked(graph) -> int:
    """Adds the depthwise convolutions that keep a 4-D convolutional graph in NCHWc (see above); returns
    how many were added. Run it after graph_to_4d."""
    initializers = {i.name: i for i in graph.initializer}
    readers = defaultdict(list)
    for node in graph.node:
        for name in node.input:
            readers[name].append(node)
    channels: dict[str, int] = {}
    weights: dict[tuple[int, float], str] = {}

    def depthwise(source: str, output: str, count: int, scale: float, name: str):
        key = (count, scale)
        if key not in weights:
            weights[key] = f"conv_layout_depthwise_{count}_{len(weights)}"
            graph.initializer.append(numpy_helper.from_array(
                np.full((count, 1, 1, 1), scale, dtype=np.float32), weights[key]))
        return helper.make_node("Conv", [source, weights[key]], [output], name=name, group=count,
                                kernel_shape=[1, 1])

    nodes, renamed, folded, added = [], {}, {}, 0
    for node in graph.node:
        node.input[:] = [renamed.get(name, name) for name in node.input]
        count = _output_channels(node, initializers)
        if count is None and node.input and node.input[0] in channels:
            count = channels[node.input[0]]
        if count is not None:
            channels[node.output[0]] = count
        divisor = _scalar(node.input[1], initializers) if node.op_type == "Div" else None
        if (divisor is not None and divisor > 0 and node.input[0] in channels
                and [r.op_type for r in readers[node.output[0]]] == ["LeakyRelu"]):
            folded[node.output[0]] = (node.input[0], 1.0 / divisor)
            continue
        if node.op_type == "LeakyRelu" and (node.input[0] in channels or node.input[0] in folded):
            source, scale = folded.pop(node.input[0], (node.input[0], 1.0))
            blocked = node.output[0] + "/depthwise"
            nodes.append(depthwise(source, blocked, channels[source], scale, node.name + "/depthwise"))
            node.input[0] = blocked
            added += 1
        nodes.append(node)
        if node.op_type == "ConvTranspose":
            blocked = node.output[0] + "/blocked"
            nodes.append(depthwise(node.output[0], blocked, count, 1.0, node.name + "/blocked"))
            renamed[node.output[0]] = blocked
            channels[blocked] = count
            added += 1
    if folded:
        raise ValueError(f"Div nodes {sorted(folded)} were folded but their LeakyRelu was not found")
    del graph.node[:]
    graph.node.extend(nodes)
    return added
