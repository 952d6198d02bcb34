"""The repo's small ONNX graph builder: named nodes, initializers, inputs and outputs, opset 17, IR 8.

Used by the synthetic graphs of the fixtures, the converters that write ONNX op by op and the benchmark
graphs. `half=True` stores float weights as f16 and casts them to f32 inside. A subclass sets
`producer` (the model's producer_name).
"""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]
IR_VERSION = 8
F32, F16, I64, I32 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT64, TensorProto.INT32


class Graph:
    producer = "warble"

    def __init__(self, name, half=False, seed=0):
        self.name, self.half = name, half
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.count = 0
        self.rng = np.random.default_rng(seed)

    def fresh(self, hint="t"):
        self.count += 1
        return f"{hint}_{self.count}"

    def op(self, kind, inputs, hint=None, outputs=None, **attrs):
        out = outputs or [self.fresh(hint or kind.lower())]
        self.nodes.append(helper.make_node(kind, list(inputs), out, **attrs))
        return out[0] if len(out) == 1 else out

    def const(self, array, hint="c"):
        name = self.fresh(hint)
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def ints(self, values):
        return self.const(np.array(values, dtype=np.int64), "i")

    def i64(self, value):
        return self.const(np.array(value, dtype=np.int64), "i")

    def weight(self, array, hint="w"):
        """A float weight: f32, or stored as f16 and cast to f32 in the half variant."""
        array = np.asarray(array, dtype=np.float32)
        if not self.half:
            return self.const(array, hint)
        return self.op("Cast", [self.const(array.astype(np.float16), hint)], to=F32)

    def scalar(self, value):
        return self.const(np.array(value, dtype=np.float32), "s")

    def input(self, name, elem, shape):
        self.inputs.append(helper.make_tensor_value_info(name, elem, shape))
        return name

    def output(self, name, elem, shape):
        self.outputs.append(helper.make_tensor_value_info(name, elem, shape))
        return name

    def dim(self, tensor, axis):
        """Shape(tensor)[axis] as a 1-element i64 tensor."""
        return self.op("Slice", [self.op("Shape", [tensor]), self.ints([axis]), self.ints([axis + 1])])

    def model(self):
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        model = helper.make_model(graph, opset_imports=OPSET, producer_name=self.producer)
        model.ir_version = IR_VERSION
        return model
