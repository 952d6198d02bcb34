"""Reader for CTranslate2 `model.bin` files (binary versions 1-6), numpy only.

Layout (little-endian, no alignment padding):
  u32 binary_version
  version >= 2: string spec name, u32 spec revision
  u32 variable count, then per variable:
    string name, u8 rank, rank x u32 dims,
    version >= 4: u8 dtype id, u32 byte count
    version <  4: u8 item size (4 f32, 2 i16, 1 i8), u32 element count
    raw row-major data
  version >= 3: u32 alias count, then (alias, target) string pairs
A string is a u16 length that counts a trailing NUL, the bytes, then the NUL.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

CURRENT_BINARY_VERSION = 6

# ctranslate2 DataType ids (binary version >= 4).
DTYPES = {
    0: ("float32", np.dtype("<f4")),
    1: ("int8", np.dtype("i1")),
    2: ("int16", np.dtype("<i2")),
    3: ("int32", np.dtype("<i4")),
    4: ("float16", np.dtype("<f2")),
    5: ("bfloat16", np.dtype("<u2")),  # raw bits; widened to f32 on demand
}
# Binary versions < 4 stored an item size; ctranslate2 maps it like this.
LEGACY_ITEM_SIZES = {4: 0, 2: 2, 1: 1}


class Ct2FormatError(Exception):
    """A model.bin that cannot be read, with what was found where."""


@dataclass
class Variable:
    name: str
    dtype: str  # one of the DTYPES names
    shape: tuple[int, ...]
    data: np.ndarray  # typed view of the raw bytes (bf16 as uint16 bits)
    offset: int  # byte offset of the data in the file

    def as_float32(self) -> np.ndarray:
        """The value widened exactly to float32 (floating dtypes only)."""
        if self.dtype == "float32":
            return self.data
        if self.dtype == "float16":
            return self.data.astype(np.float32)
        if self.dtype == "bfloat16":
            return (self.data.astype(np.uint32) << 16).view(np.float32)
        raise Ct2FormatError(
            f"variable {self.name!r} at offset {self.offset} is {self.dtype}; "
            "a floating type (float32, float16, bfloat16) was expected")

    def scalar(self) -> int | float:
        if self.data.size != 1:
            raise Ct2FormatError(
                f"variable {self.name!r} at offset {self.offset} has shape {self.shape}; "
                "a scalar was expected")
        value = self.as_float32()[()] if self.dtype in ("float16", "bfloat16") else self.data.reshape(())[()]
        return value.item()


@dataclass
class Ct2Model:
    path: str
    binary_version: int
    spec: str
    spec_revision: int
    variables: dict[str, Variable] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        return self.resolve(name) in self.variables

    def resolve(self, name: str) -> str:
        seen = set()
        while name in self.aliases and name not in self.variables:
            if name in seen:
                raise Ct2FormatError(f"alias cycle through {name!r} in {self.path}")
            seen.add(name)
            name = self.aliases[name]
        # ctranslate2 also aliases the quantisation scale of an aliased weight.
        if name not in self.variables and name.endswith("_scale"):
            base = name[: -len("_scale")]
            if base in self.aliases:
                return self.resolve(base) + "_scale"
        return name

    def get(self, name: str) -> Variable:
        resolved = self.resolve(name)
        try:
            return self.variables[resolved]
        except KeyError:
            alias = f" (alias of {resolved!r})" if resolved != name else ""
            raise Ct2FormatError(
                f"{self.path}: variable {name!r}{alias} is missing; the file has "
                f"{len(self.variables)} variables (spec {self.spec!r} revision {self.spec_revision})"
            ) from None

    def get_optional(self, name: str) -> Variable | None:
        return self.variables.get(self.resolve(name))


class _Cursor:
    def __init__(self, path: str, buf: memoryview):
        self.path = path
        self.buf = buf
        self.pos = 0

    def take(self, n: int, what: str) -> memoryview:
        if n < 0 or self.pos + n > len(self.buf):
            raise Ct2FormatError(
                f"{self.path}: truncated: {what} needs {n} bytes at offset {self.pos}, "
                f"but the file has {len(self.buf)} bytes")
        view = self.buf[self.pos:self.pos + n]
        self.pos += n
        return view

    def u8(self, what: str) -> int:
        return self.take(1, what)[0]

    def u16(self, what: str) -> int:
        return struct.unpack("<H", self.take(2, what))[0]

    def u32(self, what: str) -> int:
        return struct.unpack("<I", self.take(4, what))[0]

    def string(self, what: str) -> str:
        start = self.pos
        length = self.u16(f"length of {what}")
        if length == 0:
            raise Ct2FormatError(f"{self.path}: {what} at offset {start} has length 0 "
                                 "(a string's length counts its trailing NUL)")
        raw = bytes(self.take(length, what))
        if raw[-1] != 0:
            raise Ct2FormatError(f"{self.path}: {what} at offset {start} does not end with NUL "
                                 f"(read {raw[:40]!r})")
        try:
            return raw[:-1].decode("utf-8")
        except UnicodeDecodeError:
            raise Ct2FormatError(f"{self.path}: {what} at offset {start} is not UTF-8 "
                                 f"(read {raw[:40]!r})") from None


def read_model(path: str, expected_spec: str | None = "WhisperSpec") -> Ct2Model:
    with open(path, "rb") as f:
        data = f.read()
    cur = _Cursor(path, memoryview(data))
    if len(data) < 4:
        raise Ct2FormatError(f"{path}: {len(data)} bytes is too short for a ctranslate2 model.bin")
    version = cur.u32("binary version")
    if not 1 <= version <= CURRENT_BINARY_VERSION:
        raise Ct2FormatError(
            f"{path}: binary version {version} at offset 0 is not a ctranslate2 model.bin "
            f"version this converter reads (1-{CURRENT_BINARY_VERSION}); first bytes {data[:16].hex()}")
    spec, revision = "", 1
    if version >= 2:
        spec = cur.string("spec name")
        revision = cur.u32("spec revision")
    if expected_spec is not None and version >= 2 and spec != expected_spec:
        raise Ct2FormatError(f"{path}: the model spec is {spec!r}; this converter accepts {expected_spec!r}")
    model = Ct2Model(path=path, binary_version=version, spec=spec, spec_revision=revision)

    count_at = cur.pos
    count = cur.u32("variable count")
    if count > 1_000_000:
        raise Ct2FormatError(f"{path}: variable count {count} at offset {count_at} is implausible")
    for index in range(count):
        at = cur.pos
        name = cur.string(f"name of variable #{index}")
        rank = cur.u8(f"rank of {name!r}")
        if rank > 8:
            raise Ct2FormatError(f"{path}: variable {name!r} (entry at offset {at}) has rank {rank}; at most 8 is accepted")
        dims = tuple(cur.u32(f"dimension {d} of {name!r}") for d in range(rank))
        elements = int(np.prod(dims, dtype=np.int64)) if rank else 1
        if version >= 4:
            type_at = cur.pos
            type_id = cur.u8(f"dtype of {name!r}")
            if type_id not in DTYPES:
                raise Ct2FormatError(
                    f"{path}: variable {name!r} has dtype id {type_id} at offset {type_at}; "
                    f"accepted ids: {', '.join(f'{k} {v[0]}' for k, v in DTYPES.items())}")
            nbytes = cur.u32(f"byte count of {name!r}")
        else:
            size_at = cur.pos
            item_size = cur.u8(f"item size of {name!r}")
            if item_size not in LEGACY_ITEM_SIZES:
                raise Ct2FormatError(
                    f"{path}: variable {name!r} has item size {item_size} at offset {size_at}; "
                    "accepted: 4 (float32), 2 (int16), 1 (int8)")
            type_id = LEGACY_ITEM_SIZES[item_size]
            nbytes = cur.u32(f"element count of {name!r}") * item_size
        dtype_name, np_dtype = DTYPES[type_id]
        if nbytes != elements * np_dtype.itemsize:
            raise Ct2FormatError(
                f"{path}: variable {name!r} (entry at offset {at}) has shape {dims} of {dtype_name} "
                f"= {elements * np_dtype.itemsize} bytes, but its byte count says {nbytes}")
        data_at = cur.pos
        raw = cur.take(nbytes, f"data of {name!r} ({dtype_name} {list(dims)})")
        array = np.frombuffer(raw, dtype=np_dtype).reshape(dims)
        if name in model.variables:
            raise Ct2FormatError(f"{path}: variable {name!r} appears twice (second at offset {at})")
        model.variables[name] = Variable(name, dtype_name, dims, array, data_at)

    if version >= 3:
        n_at = cur.pos
        n_aliases = cur.u32("alias count")
        if n_aliases > 1_000_000:
            raise Ct2FormatError(f"{path}: alias count {n_aliases} at offset {n_at} is implausible")
        for i in range(n_aliases):
            alias = cur.string(f"alias #{i}")
            target = cur.string(f"target of alias {alias!r}")
            model.aliases[alias] = target
    if cur.pos != len(data):
        raise Ct2FormatError(
            f"{path}: {len(data) - cur.pos} unexpected bytes after the "
            f"{'alias table' if version >= 3 else 'last variable'} at offset {cur.pos} "
            f"(file size {len(data)}); the file may be corrupt or wrongly concatenated")
    for alias, target in model.aliases.items():
        if model.resolve(alias) not in model.variables:
            raise Ct2FormatError(f"{path}: alias {alias!r} points to {target!r}, which is not a variable")
    return model
