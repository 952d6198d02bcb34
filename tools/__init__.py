"""Warble's Python tools as one package: `tools.<area>` per folder (the fixture and golden makers, the
converters the set-up and `warble models pull` run, the benchmark references), `tools.common` for what areas
share. scripts/python-env.sh puts the repository on the path of `.venv` (a .pth file), so a script run by
path (`.venv/bin/python tools/whisper/convert_ct2.py`) imports its neighbours as `tools.whisper.…`."""
