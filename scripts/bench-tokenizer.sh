#!/usr/bin/env bash
# BPE encode throughput, Swift (WarbleText, release build) against Python `tokenizers` (pinned in
# tools/text/requirements.txt), in the same run, on ~1 MB of the multilingual corpus, one thread.
#   scripts/bench-tokenizer.sh [RUNS]      (default 7; each side reports the median of its runs)
# Modes: "text" encodes the whole text in one call; "lines" makes one call per line (as per sentence in TTS).
# Both sides build a fresh tokenizer per run, so neither starts with a warm word cache.
# Prints, per tokenizer and mode, both medians and the Swift/Python throughput ratio (> 1 means Swift is faster).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-7}"
scratch="$warble_root/.build-text"
fixtures="$warble_root/Tests/Fixtures/generated/text"
python="$warble_root/.venv/bin/python"

"$warble_root/scripts/python-env.sh" || say "python-env.sh failed; using the existing .venv"
[[ -f "$fixtures/whisper/tokenizer.json" ]] || "$python" "$warble_root/tools/text/make_fixtures.py" "$fixtures" >&2

say "building bench-tokenizer (release)"
swift build --package-path "$warble_root" --scratch-path "$scratch" -c release --product bench-tokenizer >&2
swift_bin="$(swift build --package-path "$warble_root" --scratch-path "$scratch" -c release --show-bin-path)/bench-tokenizer"

text="$(mktemp)"
trap 'rm -f "$text"' EXIT
"$python" "$warble_root/tools/text/bench_tokenizer.py" make-text "$text"

export RAYON_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false
for case in "whisper text" "whisper lines" "qwen2 text" "qwen2 lines"; do
    read -r name mode <<<"$case"
    json="$fixtures/$name/tokenizer.json"
    # Interleave the two sides so machine noise hits both alike.
    read -r py_s py_n bytes <<<"$("$python" "$warble_root/tools/text/bench_tokenizer.py" run "$json" "$text" "$runs" "$mode")"
    read -r sw_s sw_n _ <<<"$("$swift_bin" "$json" "$text" "$runs" "$mode")"
    [[ "$py_n" == "$sw_n" ]] || die "$name: token counts differ (python $py_n, swift $sw_n)"
    python3 - "$name/$mode" "$bytes" "$py_s" "$sw_s" "$sw_n" <<'PY'
import sys
name, size, py, sw, n = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
mb = size / 1e6
print(f"{name:14s} {mb:.2f} MB, {n} tokens: python {py*1000:8.1f} ms ({mb/py:6.2f} MB/s)  "
      f"swift {sw*1000:8.1f} ms ({mb/sw:6.2f} MB/s)  swift/python throughput ratio {py/sw:.2f}")
PY
done
