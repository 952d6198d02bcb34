#!/usr/bin/env bash
# Load test of `warble serve` (release build) on loopback: N concurrent clients for S seconds
# (tools/server/load.py), then the server's resident memory before the load, at its peak, and after
# it has been idle for a few seconds. Target: no errors other than 429, memory back near its start.
#
#   scripts/load-server.sh [--clients N] [--seconds S] [--format wav|pcm|mp3] [--max-concurrent C] [--max-queue Q]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

clients=8 seconds=60 format=wav concurrent=2 queue=8
while (($#)); do
    case "$1" in
        --clients) clients="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --format) format="$2"; shift 2 ;;
        --max-concurrent) concurrent="$2"; shift 2 ;;
        --max-queue) queue="$2"; shift 2 ;;
        *) die "unknown argument $1" ;;
    esac
done
scratch="${WARBLE_SERVER_SCRATCH:-.build}"

"$warble_root/scripts/python-env.sh" >/dev/null
say "building warble (release)"
swift build -c release --scratch-path "$scratch" --product warble >/dev/null || die "the build failed"

log="$(mktemp)"
"$scratch/release/warble" serve --port 0 --log-level warning --max-concurrent "$concurrent" --max-queue "$queue" \
    >"$log" 2>&1 &
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
# One request first, so the start figure includes a loaded model and a used synthesis path.
curl -s -o /dev/null "http://127.0.0.1:$port/v1/audio/speech" -H 'Content-Type: application/json' \
    -d '{"model":"tts-1","input":"Warming up.","response_format":"wav"}'
sleep 1
before="$(rss)"
peak="$before"
( while kill -0 "$pid" 2>/dev/null; do r="$(rss)"; echo "$r"; sleep 0.5; done ) >"$log.rss" &
sampler=$!

say "load: $clients clients for $seconds s, format $format, $concurrent concurrent, queue $queue (port $port)"
status=0
.venv/bin/python tools/server/load.py --url "http://127.0.0.1:$port" --clients "$clients" --seconds "$seconds" \
    --format "$format" || status=1
sleep 5
after="$(rss)"
kill "$sampler" 2>/dev/null || true
peak="$(sort -n "$log.rss" | tail -n1)"
rm -f "$log.rss"
health="$(curl -s "http://127.0.0.1:$port/health")"
echo "server RSS: before $before MiB, peak $peak MiB, after (5 s idle) $after MiB"
echo "server health after: $health"
((status == 0)) || die "errors other than 429 (see above)"
