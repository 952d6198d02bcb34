"""Family names in Swift string literals (issue #38): a family's lowercase id (the catalogue's `family`, or a family's
`name`) may appear as a word inside a string literal only in that family's own folder (Sources/WarbleModels/<Family>/,
the folder whose family declares `let name = "<id>"`) and in the catalogue data (JSON). Comments and prose with a
capital ("Kokoro", "CosyVoice 3") are not looked at; reference engines' names (faster-whisper, piper-tts,
kokoro-onnx) and OpenAI's model name whisper-1 are not family names."""
import json
import pathlib
import re

# Families that have no `ModelFamily` of their own but belong to one that loads them (NeuCodec's decoder is NeuTTS's).
COMPANIONS = {"neucodec": "neutts"}
NOT_FAMILY_NAMES = ["faster-whisper", "piper-tts", "piper_phonemize", "kokoro-onnx", "whisper-1"]


def literals(source):
    """The text of every string literal in Swift `source` (interpolated code left out, its own literals included),
    with the line each starts on; comments skipped."""
    found, i, n = [], 0, len(source)

    def line_of(position):
        return source.count("\n", 0, position) + 1

    def read_string(i, pounds):
        # At the opening quote(s). Returns (end index after the closing delimiter, text pieces).
        multiline = source.startswith('"""', i)
        quote = '"""' if multiline else '"'
        close = quote + "#" * pounds
        escape = "\\" + "#" * pounds
        i += len(quote)
        text = []
        while i < n:
            if source.startswith(close, i):
                return i + len(close), "".join(text)
            if source.startswith(escape, i):
                j = i + len(escape)
                if j < n and source[j] == "(":
                    depth, j = 1, j + 1
                    start = j
                    while j < n and depth:
                        if source[j] == '"' or (source[j] == "#" and source[j:].lstrip("#").startswith('"')):
                            j = scan_literal(j)
                            continue
                        depth += {"(": 1, ")": -1}.get(source[j], 0)
                        j += 1
                    text.append(" ")
                    i = j
                    continue
                text.append(source[j:j + 1])
                i = j + 1
                continue
            if not multiline and source[i] == "\n":
                return i, "".join(text)
            text.append(source[i])
            i += 1
        return i, "".join(text)

    def scan_literal(i):
        pounds = 0
        while source[i] == "#":
            pounds += 1
            i += 1
        start = i
        end, text = read_string(i, pounds)
        found.append((line_of(start), text))
        return end

    while i < n:
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif source[i] == '"' or (source[i] == "#" and source[i:].lstrip("#").startswith('"')):
            i = scan_literal(i)
        else:
            i += 1
    return found


def family_folders(root):
    """Each family id, with the folder under Sources/WarbleModels that declares it."""
    folders = {}
    for path in (root / "Sources" / "WarbleModels").rglob("*.swift"):
        for name in re.findall(r'\blet name = "([a-z0-9-]+)"', path.read_text()):
            folders[name] = path.relative_to(root / "Sources" / "WarbleModels").parts[0]
    return folders


def offending(root):
    """(path, line, family, literal) for every family name in a string literal outside its place."""
    folders = family_folders(root)
    catalogue = json.loads((root / "Sources" / "WarbleHub" / "Catalogue" / "models.json").read_text())
    names = set(folders) | {entry["family"] for entry in catalogue["models"]}
    for companion, owner in COMPANIONS.items():
        if owner in folders:
            folders[companion] = folders[owner]
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")(?![A-Za-z0-9_])")
    results = []
    for path in sorted((root / "Sources").rglob("*.swift")):
        relative = path.relative_to(root / "Sources")
        home = relative.parts[1] if relative.parts[0] == "WarbleModels" and len(relative.parts) > 2 else None
        for line, text in literals(path.read_text()):
            for name in NOT_FAMILY_NAMES:
                text = text.replace(name, " ")
            for match in pattern.finditer(text):
                if home is not None and folders.get(match.group(1)) == home:
                    continue
                results.append((str(relative), line, match.group(1), text.strip()[:90]))
    return results


if __name__ == "__main__":
    import sys
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    found = offending(root)
    for path, line, name, text in found:
        print(f"{path}:{line}: {name}: {text}")
    print(len(found), "found")
    sys.exit(1 if found else 0)
