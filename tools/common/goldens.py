"""Binary goldens as the Swift tests read them: raw little-endian arrays plus an index.json of their shapes
and dtypes, and JSON files beside them."""
import hashlib
import json
from pathlib import Path

import numpy as np


class Golden:
    KINDS = {"f32": "<f4", "i32": "<i4", "i64": "<i8"}

    def __init__(self, out, ensure_ascii=False):
        self.out, self.index, self.ensure_ascii = out, {}, ensure_ascii
        out.mkdir(parents=True, exist_ok=True)

    def array(self, name, array, dtype="f32"):
        array = np.ascontiguousarray(np.asarray(array).astype(self.KINDS[dtype]))
        (self.out / name).write_bytes(array.tobytes())
        self.index[name] = {"shape": list(array.shape), "dtype": dtype}
        return name

    def json(self, name, obj):
        text = json.dumps(obj, indent=1, ensure_ascii=self.ensure_ascii) + "\n"
        (self.out / name).write_text(text, encoding="utf-8")

    def finish(self):
        self.json("index.json", {"arrays": self.index})


def tree_digest(root):
    """sha256 over the relative paths and bytes of every file below root (two runs of a maker must agree)."""
    h = hashlib.sha256()
    for path in sorted(Path(root).rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()
