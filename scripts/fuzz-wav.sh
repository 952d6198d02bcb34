#!/usr/bin/env bash
# Fuzzes WarbleAudio's WAV reader with libFuzzer (+ AddressSanitizer) for a bounded number of runs.
#   scripts/fuzz-wav.sh [RUNS]        (default 1000000; exits non-zero on any crash)
# Builds the separate package in Fuzz/ (so the main build never sees fuzzer flags) into .build-audio-fuzz,
# writes a seed corpus of WAV variants (sox and hand-made headers) into .build-audio-fuzz/corpus, and
# keeps crash reproducers in .build-audio-fuzz/artifacts. libFuzzer ships with the Swift toolchain
# (lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a): no extra package is needed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-1000000}"
scratch="$warble_root/.build-audio-fuzz"
corpus="$scratch/corpus"
artifacts="$scratch/artifacts"
mkdir -p "$corpus" "$artifacts"

command -v sox >/dev/null || die "sox is needed for the seed corpus (Debian package 'sox')"

say "building the WAV fuzz target (-sanitize=fuzzer,address)"
swift build --package-path "$warble_root/Fuzz" --scratch-path "$scratch" -c debug \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -O -Xswiftc -use-ld=lld --product fuzz-wav >&2
binary="$(swift build --package-path "$warble_root/Fuzz" --scratch-path "$scratch" -c debug --show-bin-path)/fuzz-wav"

say "writing the seed corpus"
seed() { sox -q -n "$@" synth 0.005 sine 440 2>/dev/null || true; }
seed -r 8000 -c 1 -b 16 -e signed-integer "$corpus/pcm16.wav"
seed -r 16000 -c 2 -b 24 -e signed-integer "$corpus/pcm24-stereo.wav"
seed -r 22050 -c 1 -b 32 -e signed-integer "$corpus/pcm32.wav"
seed -r 8000 -c 1 -b 8 -e unsigned-integer "$corpus/u8.wav"
seed -r 24000 -c 1 -b 32 -e floating-point "$corpus/float32.wav"
seed -r 24000 -c 2 -b 64 -e floating-point "$corpus/float64.wav"
seed -r 8000 -c 1 -e u-law "$corpus/ulaw.wav"
seed -r 8000 -c 1 -e a-law "$corpus/alaw.wav"
seed -r 48000 -c 6 -b 16 -e signed-integer "$corpus/extensible-6ch.wav"
seed -r 8000 -c 1 -e ima-adpcm "$corpus/ima-adpcm.wav"
python3 - "$corpus" <<'PY'
import struct, sys, os
d = sys.argv[1]
fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)
data = struct.pack("<4h", 0, 1000, -1000, 32767)
def chunk(i, b): return i + struct.pack("<I", len(b)) + b + (b"\0" if len(b) % 2 else b"")
def riff(body, size=None, magic=b"RIFF"): return magic + struct.pack("<I", len(body) + 4 if size is None else size) + b"WAVE" + body
files = {
    "odd-chunk.wav": riff(chunk(b"fmt ", fmt) + chunk(b"LIST", b"abc") + chunk(b"data", data)),
    "streamed-ffff.wav": riff(chunk(b"fmt ", fmt) + b"data" + struct.pack("<I", 0xFFFFFFFF) + data, 0xFFFFFFFF),
    "streamed-zero.wav": riff(chunk(b"fmt ", fmt) + b"data" + struct.pack("<I", 0) + data, 0),
    "truncated.wav": riff(chunk(b"fmt ", fmt) + b"data" + struct.pack("<I", 1000) + data),
    "rf64.wav": riff(chunk(b"ds64", struct.pack("<QQQI", 0, len(data), 4, 0)) + chunk(b"fmt ", fmt)
                     + b"data" + struct.pack("<I", 0xFFFFFFFF) + data, 0xFFFFFFFF, b"RF64"),
    "fmt-after-data.wav": riff(chunk(b"data", data) + chunk(b"fmt ", fmt)),
}
for name, b in files.items():
    open(os.path.join(d, name), "wb").write(b)
PY

say "fuzzing for $runs runs"
cd "$artifacts"
"$binary" -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" >&2
say "no crash in $runs runs"
