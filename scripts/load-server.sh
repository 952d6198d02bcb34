#!/usr/bin/env bash
# Load test of `warble serve` (release build) on loopback: N concurrent clients for S seconds
# (tools/server/load.py), repeated --rounds times, with the server's resident memory after a warm-up
# at full concurrency (ONNX Runtime's arena and the chunk cache settle there), at its peak, and after
# each round once idle for 5 s. Target: no errors other than 429; memory back near its start and
# flat from round to round (no leak).
#
#   scripts/load-server.sh [--clients N] [--seconds S] [--rounds R] [--format wav|pcm|mp3]
#                          [--max-concurrent C] [--max-queue Q] [--cache-mb M] [--no-memory-arena]
# The engine caches rendered sentences (64 MiB by default): memory grows until that cache is full;
# --cache-mb 0 shows the server without it; --no-memory-arena makes ONNX Runtime free its buffers
# after each run instead of keeping its high-water mark.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

clients=8 seconds=60 rounds=1 format=wav concurrent=2 queue=8 cache=64 arena=--memory-arena
while (($#)); do
    case "$1" in
        --clients) clients="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --format) format="$2"; shift 2 ;;
        --max-concurrent) concurrent="$2"; shift 2 ;;
        --max-queue) queue="$2"; shift 2 ;;
        --cache-mb) cache="$2"; shift 2 ;;
        --no-memory-arena) arena=--no-memory-arena; shift ;;
        *) die "unknown argument $1" ;;
    esac
done
scratch="${WARBLE_SERVER_SCRATCH:-.build}"

"$warble_root/scripts/python-env.sh" >/dev/null
say "building warble (release)"
swift build -c release --scratch-path "$scratch" --product warble >/dev/null || die "the build failed"

log="$(mktemp)"
"$scratch/release/warble" serve --port 0 --log-level warning --max-concurrent "$concurrent" --max-queue "$queue" \
    --cache-mb "$cache" "$arena" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
port=""
for _ in $(seq 1 600); do
    port="$(sed -n 's|^warble: serving on http://127.0.0.1:\([0-9]*\)$|\1|p' "$log")"
    [[ -n "$port" ]] && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; die "warble serve exited"; }
    sleep 0.1
done
[[ -n "$port" ]] || die "warble serve did not start"

rss() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status"; }
# Warm up at full concurrency, so the start figure includes loaded models and ONNX Runtime's arenas
# grown for that many runs at once.
warmups=()
for i in $(seq 1 $((concurrent * 2))); do
    curl -s -o /dev/null "http://127.0.0.1:$port/v1/audio/speech" -H 'Content-Type: application/json' \
        -d "{\"model\":\"tts-1\",\"input\":\"Warming up, part $i. This is a sentence of the usual length.\",\"response_format\":\"wav\"}" &
    warmups+=($!)
done
wait "${warmups[@]}"
sleep 2
before="$(rss)"
( while kill -0 "$pid" 2>/dev/null; do rss; echo; sleep 0.5; done ) >"$log.rss" &
sampler=$!

status=0
afters=()
for round in $(seq 1 "$rounds"); do
    say "load round $round/$rounds: $clients clients for $seconds s, format $format, $concurrent concurrent, queue $queue (port $port)"
    .venv/bin/python tools/server/load.py --url "http://127.0.0.1:$port" --clients "$clients" --seconds "$seconds" \
        --format "$format" --run "$round$RANDOM" || status=1
    sleep 5
    afters+=("$(rss)")
done
kill "$sampler" 2>/dev/null || true
peak="$(sort -n "$log.rss" | tail -n1)"
rm -f "$log.rss"
health="$(curl -s "http://127.0.0.1:$port/health")"
echo "server RSS: after warm-up $before MiB, peak $peak MiB, after each round (5 s idle): ${afters[*]} MiB"
echo "server health after: $health"
((status == 0)) || die "errors other than 429 (see above)"
