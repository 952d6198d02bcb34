#!/usr/bin/env python3
"""Checks family_strings.py's Swift literal scanner and its rule on small sources (run by scripts/test.sh's layers step)."""
import pathlib
import tempfile

import family_strings

source = r'''
// a comment naming kokoro is not a literal
/* nested /* kokoro */ still a comment */
let a = "piper-en_US-joe-medium"
let b = "Speak with \(voice.id) or \("whisper-base")"
let c = """
    multi-line naming neutts
    """
let d = #"raw "cosyvoice3" string"#
let e = "Kokoro and CosyVoice 3 in prose, faster-whisper and whisper-1 are fine"
'''
texts = [text for _, text in family_strings.literals(source)]
assert any("piper-en_US" in t for t in texts), texts
assert "whisper-base" in texts, texts
assert any("neutts" in t for t in texts), texts
assert any("cosyvoice3" in t for t in texts), texts
assert not any("comment" in t for t in texts), texts

with tempfile.TemporaryDirectory() as directory:
    root = pathlib.Path(directory)
    (root / "Sources" / "WarbleModels" / "Kokoro").mkdir(parents=True)
    (root / "Sources" / "WarbleHub" / "Catalogue").mkdir(parents=True)
    (root / "Sources" / "warble").mkdir(parents=True)
    (root / "Sources" / "WarbleHub" / "Catalogue" / "models.json").write_text('{"models": [{"family": "piper"}, {"family": "whisper"}]}')
    (root / "Sources" / "WarbleModels" / "Kokoro" / "KokoroFamily.swift").write_text('let name = "kokoro"\nlet x = "kokoro-v1.0"\nlet y = "piper"\n')
    (root / "Sources" / "warble" / "Say.swift").write_text(source)
    found = sorted((path, name) for path, _, name, _ in family_strings.offending(root))
    # In the CLI: piper and whisper (neutts and cosyvoice3 are no families here; kokoro only in a comment and in
    # prose); in Kokoro's folder its own name is fine, another family's is not.
    assert found == [("WarbleModels/Kokoro/KokoroFamily.swift", "piper"), ("warble/Say.swift", "piper"),
                     ("warble/Say.swift", "whisper")], found
print("ok    family_strings: literals and the rule")
