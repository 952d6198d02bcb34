"""Reads a Hugging Face checkpoint's tensors without PyTorch: `model.safetensors` (its header format)
or `pytorch_model.bin` (PyTorch's zip of a pickle and raw storages), as numpy arrays.

The pickle is read by a restricted unpickler that builds only tensors: it resolves no global but
the handful `torch.save` writes for a state dict (OrderedDict, the tensor and parameter rebuilders,
the typed storage classes) and refuses everything else, so a checkpoint cannot run code. Legacy
(pre-zip, PyTorch < 1.6) files are refused.
"""
from __future__ import annotations

import collections
import json
import pickle
import struct
import zipfile
from pathlib import Path

import numpy as np


class WeightsError(Exception):
    pass


SAFETENSORS_DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": "bf16", "F64": np.float64,
                      "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8,
                      "BOOL": np.bool_}

TORCH_STORAGES = {"FloatStorage": np.float32, "HalfStorage": np.float16, "BFloat16Storage": "bf16",
                  "DoubleStorage": np.float64, "LongStorage": np.int64, "IntStorage": np.int32,
                  "ShortStorage": np.int16, "CharStorage": np.int8, "ByteStorage": np.uint8,
                  "BoolStorage": np.bool_}


def _from_bytes(raw: bytes, dtype, shape) -> np.ndarray:
    if dtype == "bf16":  # bfloat16: the high half of a float32
        halves = np.frombuffer(raw, dtype="<u2")
        return (halves.astype(np.uint32) << 16).view(np.float32).reshape(shape)
    return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<")).reshape(shape)


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    data = path.read_bytes()
    if len(data) < 8:
        raise WeightsError(f"{path.name} is not a safetensors file ({len(data)} bytes)")
    (size,) = struct.unpack("<Q", data[:8])
    if size > len(data) - 8 or size > 100_000_000:
        raise WeightsError(f"{path.name} is not a safetensors file (header of {size} bytes)")
    try:
        header = json.loads(data[8:8 + size])
    except ValueError as e:
        raise WeightsError(f"{path.name}: its header is not JSON ({e})") from e
    base = 8 + size
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype = SAFETENSORS_DTYPES.get(entry.get("dtype"))
        if dtype is None:
            raise WeightsError(f"{path.name}: tensor {name} has dtype {entry.get('dtype')}, which the converter does not read "
                               f"(it reads {', '.join(SAFETENSORS_DTYPES)})")
        start, end = entry["data_offsets"]
        if not 0 <= start <= end <= len(data) - base:
            raise WeightsError(f"{path.name}: tensor {name}'s data ({start}..{end}) lies outside the file")
        tensors[name] = _from_bytes(data[base + start:base + end], dtype, tuple(entry["shape"]))
    return tensors


class _Storage:
    def __init__(self, dtype, key):
        self.dtype, self.key = dtype, key


class _StorageType:
    def __init__(self, dtype):
        self.dtype = dtype


def read_pytorch_bin(path: Path) -> dict[str, np.ndarray]:
    if not zipfile.is_zipfile(path):
        raise WeightsError(f"{path.name} is not a zip-format PyTorch checkpoint (PyTorch >= 1.6); the legacy format is not read: "
                           "convert it with `torch.save(torch.load(f), f)` or use the repository's model.safetensors")
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        pickles = [n for n in names if n.endswith("/data.pkl") or n == "data.pkl"]
        if len(pickles) != 1:
            raise WeightsError(f"{path.name} holds {len(pickles)} data.pkl entries; a PyTorch checkpoint has one")
        prefix = pickles[0][: -len("data.pkl")]
        order = prefix + "byteorder"
        if order in names and archive.read(order).strip() != b"little":
            raise WeightsError(f"{path.name} was saved big-endian, which the converter does not read")
        storages: dict[str, bytes] = {}

        def storage_bytes(key: str) -> bytes:
            if key not in storages:
                entry = f"{prefix}data/{key}"
                if entry not in names:
                    raise WeightsError(f"{path.name} lacks the storage {entry} its pickle names")
                storages[key] = archive.read(entry)
            return storages[key]

        def rebuild_tensor(storage, offset, size, stride, requires_grad=False, hooks=None, metadata=None):
            if not isinstance(storage, _Storage):
                raise WeightsError(f"{path.name}: a tensor is built from {type(storage).__name__}, not a storage")
            itemsize = 2 if storage.dtype == "bf16" else np.dtype(storage.dtype).itemsize
            raw = storage_bytes(storage.key)
            flat = _from_bytes(raw[: len(raw) // itemsize * itemsize], storage.dtype, (-1,))
            size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
            if not size:
                return flat[int(offset):int(offset) + 1].reshape(()).copy()
            last = int(offset) + sum((n - 1) * s for n, s in zip(size, stride))
            if min(size) > 0 and last >= flat.size:
                raise WeightsError(f"{path.name}: a tensor of shape {size} reaches past its storage")
            view = np.lib.stride_tricks.as_strided(flat[int(offset):], shape=size,
                                                   strides=tuple(s * flat.itemsize for s in stride))
            return np.array(view)

        def rebuild_parameter(data, requires_grad=False, hooks=None):
            return data

        allowed = {("collections", "OrderedDict"): collections.OrderedDict,
                   ("torch._utils", "_rebuild_tensor_v2"): rebuild_tensor,
                   ("torch._utils", "_rebuild_parameter"): rebuild_parameter}
        allowed.update({("torch", name): _StorageType(dtype) for name, dtype in TORCH_STORAGES.items()})

        class Restricted(pickle.Unpickler):
            def find_class(self, module, name):
                found = allowed.get((module, name))
                if found is None:
                    raise WeightsError(f"{path.name} asks to load {module}.{name}; the converter reads only tensors "
                                       "(a state dict) and refuses anything else in a pickle")
                return found

            def persistent_load(self, pid):
                if not (isinstance(pid, tuple) and len(pid) >= 3 and pid[0] == "storage" and isinstance(pid[1], _StorageType)):
                    raise WeightsError(f"{path.name}: unexpected persistent id {pid!r:.80}")
                return _Storage(pid[1].dtype, str(pid[2]))

        import io
        try:
            state = Restricted(io.BytesIO(archive.read(pickles[0]))).load()
        except WeightsError:
            raise
        except Exception as e:  # a damaged pickle
            raise WeightsError(f"{path.name}: its pickle cannot be read ({type(e).__name__}: {e})") from e
    if not isinstance(state, dict) or not all(isinstance(v, np.ndarray) for v in state.values()):
        raise WeightsError(f"{path.name} does not hold a state dict of tensors")
    return dict(state)


def read_weights(directory: Path) -> tuple[dict[str, np.ndarray], str]:
    """The tensors of a repository directory and the file they came from (safetensors first)."""
    for name, reader in (("model.safetensors", read_safetensors), ("pytorch_model.bin", read_pytorch_bin)):
        if (directory / name).is_file():
            return reader(directory / name), name
    raise WeightsError(f"{directory} holds neither model.safetensors nor pytorch_model.bin")
