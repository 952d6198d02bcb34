"""Load test of `warble serve`: N concurrent clients for a fixed time on loopback.

Each client sends POST /v1/audio/speech (one or two made-up sentences of usual length, so the
engine's sentence cache rarely answers) and reads the streamed body to the end; a 429 is counted and retried
after a short pause. Prints requests/s, latency and time-to-first-byte percentiles, status counts,
and errors (anything but 200 and 429). Standard library only.

    python tools/server/load.py --url http://127.0.0.1:8880 --clients 8 --seconds 60 [--format wav]
"""

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from urllib.parse import urlparse

ADJECTIVES = "quiet bright early heavy gentle narrow distant golden sudden patient curious silver".split()
NOUNS = "river garden letter window engine harbour lantern meadow station teacher village market".split()
VERBS = "crosses follows reaches passes greets watches finds leaves joins paints".split()


def sentence(rng):
    """A new sentence of usual length: every request is synthesised, the engine's cache cannot answer."""
    a, b = rng.sample(ADJECTIVES, 2)
    n, m = rng.sample(NOUNS, 2)
    return f"The {a} {n} {rng.choice(VERBS)} the {b} {m} before {rng.choice(ADJECTIVES)} evening."


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


async def one_request(host, port, key, body):
    """(status, ttfb seconds, total seconds, body bytes)."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection(host, port)
    try:
        head = (f"POST /v1/audio/speech HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n")
        if key:
            head += f"Authorization: Bearer {key}\r\n"
        writer.write(head.encode() + b"\r\n" + body)
        await writer.drain()
        status_line = await reader.readline()
        status = int(status_line.split()[1])
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        ttfb, size = None, 0
        if headers.get("transfer-encoding") == "chunked":
            while True:
                length = int((await reader.readline()).split(b";")[0], 16)
                if length == 0:
                    await reader.readline()
                    break
                data = await reader.readexactly(length + 2)
                if ttfb is None:
                    ttfb = time.monotonic() - started
                size += length
        else:
            data = await reader.readexactly(int(headers.get("content-length", "0")))
            ttfb = time.monotonic() - started
            size = len(data)
        return status, ttfb, time.monotonic() - started, size
    finally:
        writer.close()


async def client(index, args, host, port, stop_at, results):
    rng = random.Random(args.run * 1000 + index)
    while time.monotonic() < stop_at:
        text = " ".join(sentence(rng) for _ in range(rng.choice((1, 2))))
        body = json.dumps({"model": "tts-1", "voice": args.voice, "input": text,
                           "response_format": args.format}).encode()
        try:
            status, ttfb, total, size = await one_request(host, port, args.api_key, body)
        except Exception as error:  # noqa: BLE001 - every failure is counted, not raised
            results["errors"].append(f"{type(error).__name__}: {error}")
            await asyncio.sleep(0.1)
            continue
        results["status"][status] = results["status"].get(status, 0) + 1
        if status == 200 and size > 0:
            results["latency"].append(total)
            results["ttfb"].append(ttfb)
            results["bytes"] += size
        elif status == 429:
            await asyncio.sleep(0.1)
        else:
            results["errors"].append(f"status {status}")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--api-key")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--format", default="wav")
    parser.add_argument("--voice", default="en_US-joe-medium")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--run", type=int, default=random.randrange(1, 1000), help="makes this run's texts unique")
    args = parser.parse_args()
    url = urlparse(args.url)
    results = {"status": {}, "latency": [], "ttfb": [], "bytes": 0, "errors": []}
    started = time.monotonic()
    stop_at = started + args.seconds
    await asyncio.gather(*(client(i, args, url.hostname, url.port, stop_at, results) for i in range(args.clients)))
    elapsed = time.monotonic() - started
    ok = len(results["latency"])
    figures = {
        "clients": args.clients, "seconds": round(elapsed, 1), "format": args.format,
        "ok": ok, "requests_per_second": round(ok / elapsed, 2),
        "latency_p50_ms": round(percentile(results["latency"], 50) * 1000),
        "latency_p95_ms": round(percentile(results["latency"], 95) * 1000),
        "ttfb_p50_ms": round(percentile(results["ttfb"], 50) * 1000),
        "ttfb_p95_ms": round(percentile(results["ttfb"], 95) * 1000),
        "status_counts": {str(k): v for k, v in sorted(results["status"].items())},
        "errors_other_than_429": len(results["errors"]),
        "audio_mb": round(results["bytes"] / 1e6, 1),
    }
    print(json.dumps(figures, indent=2))
    if results["errors"]:
        print("first errors:", statistics.multimode(results["errors"])[:3], file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f)
    return 1 if results["errors"] else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
