#!/usr/bin/env python3
"""Exits 0 when every file listed in DIR/manifest.json exists with its size and sha256; otherwise
prints the first difference and exits 1.   verify_manifest.py DIR"""

import hashlib
import json
import os
import sys


def main(directory: str) -> int:
    try:
        with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as f:
            files = json.load(f)["files"]
    except (OSError, ValueError, KeyError) as error:
        print(f"manifest: {error}", file=sys.stderr)
        return 1
    for entry in files:
        path = os.path.join(directory, entry["path"])
        if not os.path.isfile(path) or os.path.getsize(path) != entry["bytes"]:
            print(f"{path}: missing or not {entry['bytes']} bytes", file=sys.stderr)
            return 1
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        if digest.hexdigest() != entry["sha256"]:
            print(f"{path}: sha256 {digest.hexdigest()} differs from the manifest's {entry['sha256']}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
