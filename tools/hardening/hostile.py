"""Hostile inputs through every entry point: `warble say`, `warble serve` and `sd_warble`.

Each case is a small text or SSML document (or an audio upload) that once crashed, hung or exhausted
Warble, or a neighbour of one. Every entry point must answer it with a clear error, or with audio whose
length, time and memory grow with the length of the text and never with a number written in it:
- CLI: exit 0 or 1 (never a signal), an "Error:" line for refused input, audio within the case's
  bound, peak resident memory under 1.2 GB;
- server: 200 or 400/413 (never a dropped connection), `/health` answering after every case, and
  after a burst of large requests, resident memory within 1.3x of the idle level; clients that hang up
  before their first audio free their places at once; clients that stall (half the headers, a short
  body, an idle kept-alive connection) are closed by the timeouts, 1,000 of them at once included, and
  memory comes back; a connection past the cap gets 503;
- sd_warble, spoken to over its module protocol: every message ends with 702 END, and a message
  with bad markup still produces sound (its text, the markup removed).

Prints "PASS name" / "FAIL name: why" per check and a closing "N passed, N failed".
Standard library only.

    python tools/hardening/hostile.py --warble .build/debug/warble --sd-warble .build/debug/sd_warble
"""

import argparse
import http.client
import io
import json
import os
import re
import selectors
import socket
import struct
import threading
import subprocess
import sys
import tempfile
import time
import wave

REFUSED = "refused"
SPOKEN = "spoken"


def speak(body):
    return f"<speak>{body}</speak>"


# name, input, CLI/module outcome, server outcome, longest audio in seconds when spoken.
# The server refuses input over its 4,096-character limit (413/400) where the CLI speaks it.
CASES = [
    ("break 99999999999s", speak('a <break time="99999999999s"/> b'), REFUSED, REFUSED, 0),
    ("break 1e300s", speak('a <break time="1e300s"/> b'), REFUSED, REFUSED, 0),
    ("break 1e9ms", speak('a <break time="1e9ms"/> b'), REFUSED, REFUSED, 0),
    ("break 1e5s", speak('a <break time="1e5s"/> b'), REFUSED, REFUSED, 0),
    ("break 3600s", speak('a <break time="3600s"/> b'), REFUSED, REFUSED, 0),
    ("break NaN", speak('a <break time="NaNs"/> b'), REFUSED, REFUSED, 0),
    ("break inf", speak('a <break time="infs"/> b'), REFUSED, REFUSED, 0),
    ("break negative", speak('a <break time="-5s"/> b'), REFUSED, REFUSED, 0),
    ("break 10s (the limit)", speak('a <break time="10s"/> b'), SPOKEN, SPOKEN, 13),
    ("200 breaks of 10 s", speak('a <break time="10s"/>' * 200 + "b"), SPOKEN, REFUSED, 2200),
    ("prosody rate 1e300", speak('<prosody rate="1e300">fast</prosody>'), REFUSED, REFUSED, 0),
    ("prosody rate 0.0001%", speak('<prosody rate="0.0001%">slow</prosody>'), REFUSED, REFUSED, 0),
    ("prosody rate NaN", speak('<prosody rate="NaN">x</prosody>'), REFUSED, REFUSED, 0),
    ("prosody volume +1000dB", speak('<prosody volume="+1000dB">loud</prosody>'), REFUSED, REFUSED, 0),
    ("prosody volume -inf", speak('<prosody volume="-infdB">quiet</prosody>'), REFUSED, REFUSED, 0),
    ("prosody pitch +1e300st", speak('<prosody pitch="+1e300st">high</prosody>'), REFUSED, REFUSED, 0),
    ("nested prosody 100,000 deep", speak('<prosody rate="x-slow" volume="x-loud">' * 100000 + "deep"
                                          + "</prosody>" * 100000), SPOKEN, REFUSED, 30),
    ("nested emphasis 20,000 deep", speak("<emphasis>" * 20000 + "deep" + "</emphasis>" * 20000), SPOKEN, REFUSED, 30),
    ("a 100,000-character word", "a" * 100000, SPOKEN, REFUSED, 2500),
    ("a number of 5,000 digits", "The number is " + "7" * 5000 + ".", SPOKEN, REFUSED, 2500),
    ("a number of 900 digits with commas", "It costs $" + ",".join(["123"] * 300) + ".", SPOKEN, SPOKEN, 1000),
    ("XML declaration first", '<?xml version="1.0" encoding="UTF-8"?>' + speak("Hello there."), SPOKEN, SPOKEN, 4),
    ("DOCTYPE and comment first", '<!DOCTYPE speak><!-- a comment -->\n' + speak("Hello there."), SPOKEN, SPOKEN, 4),
    ("byte-order mark and blank lines first", "\ufeff\n\n  " + speak("Hello there."), SPOKEN, SPOKEN, 4),
    ("external entity is never expanded", '<!DOCTYPE speak [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                                          + speak("Hi &x;"), REFUSED, REFUSED, 0),
    ("unclosed SSML", "<speak>Hello <prosody rate='fast'>there", REFUSED, REFUSED, 0),
]

# Numbers typed on the command line: each must be refused with a clear usage error (exit 64), never
# turned into threads, beams, memory or a crash.
OPTION_CASES = [
    ["say", "--rate", "nan", "hi"], ["say", "--rate", "1e308", "hi"], ["say", "--volume", "inf", "hi"],
    ["say", "--sentence-pause", "1e9", "hi"], ["say", "--threads", "1000000", "hi"],
    ["transcribe", "--beam-size", "1000000", "x.wav"], ["transcribe", "--temperature", "nan", "x.wav"],
    ["transcribe", "--threads", "-1", "x.wav"], ["translate", "--beam-size", "100000", "x.wav"],
    ["serve", "--cache-mb", "99999999999999"], ["serve", "--time-limit", "nan"], ["serve", "--time-limit", "1e300"],
    ["serve", "--max-audio-seconds", "inf"], ["serve", "--max-upload-seconds", "-1"], ["serve", "--max-concurrent", "0"],
    ["serve", "--header-timeout", "1e300"], ["serve", "--body-timeout", "-1"], ["serve", "--idle-timeout", "0"],
    ["serve", "--max-connections", "0"], ["serve", "--max-live-sessions", "5000"],
]

# Cases whose input is over the server's 4,096-character limit get 413 or 400 there.
CLIENT_ERRORS = {400, 413}


def wav_seconds(data):
    """Duration of a WAV in bytes, from its data (headers of streamed WAV may carry no length)."""
    if len(data) < 44:
        return 0.0
    rate = struct.unpack_from("<I", data, 24)[0]
    block = struct.unpack_from("<H", data, 32)[0]
    k = 12
    while k + 8 <= len(data):
        tag, size = data[k:k + 4], struct.unpack_from("<I", data, k + 4)[0]
        if tag == b"data":
            return (len(data) - k - 8) / block / rate
        k += 8 + size + (size & 1)
    return 0.0


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, name, why=""):
        if ok:
            self.passed += 1
            print(f"PASS {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name}: {why}", flush=True)


# --- CLI ------------------------------------------------------------------------------------------

def run_options(results, warble):
    for argv in OPTION_CASES:
        proc = subprocess.run([warble, *argv], capture_output=True, timeout=60)
        err = proc.stderr.decode(errors="replace")
        results.check(proc.returncode == 64 and "Error:" in err, f"cli option: warble {' '.join(argv)}",
                      f"exit {proc.returncode}: {err[-300:]}")


def run_cli(results, warble, work):
    run_options(results, warble)
    for name, text, outcome, _, longest in CASES:
        out = os.path.join(work, "cli.wav")
        if os.path.exists(out):
            os.remove(out)
        started = time.monotonic()
        # GNU time reports this child's own peak resident memory on its last line.
        proc = subprocess.Popen(["/usr/bin/time", "-f", "PEAK-KB %M", warble, "say", "-q", "-o", out],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _, err = proc.communicate(text.encode(), timeout=300)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            results.check(False, f"cli: {name}", "did not finish in 300 s")
            continue
        elapsed = time.monotonic() - started
        err = err.decode(errors="replace")
        peak = re.search(r"PEAK-KB (\d+)", err)
        rss_mb = int(peak.group(1)) / 1024 if peak else None
        err = re.sub(r"(Command (exited with non-zero status|terminated by signal) \d+\n)?PEAK-KB \d+\n?$", "", err)
        if "Command terminated by signal" in err:
            results.check(False, f"cli: {name}", err[-300:])
            continue
        label = f"cli: {name}"
        if proc.returncode not in (0, 1):
            results.check(False, label, f"exit {proc.returncode}: {err[-300:]}")
            continue
        if rss_mb is not None and rss_mb > 1200:
            results.check(False, label, f"peak memory {rss_mb:.0f} MB")
            continue
        if outcome == REFUSED:
            results.check(proc.returncode == 1 and "Error:" in err, label,
                          f"expected a clear error, got exit {proc.returncode}: {err[-300:]}")
        else:
            seconds = wav_seconds(open(out, "rb").read()) if os.path.exists(out) else 0
            results.check(proc.returncode == 0 and 0 < seconds <= longest, label,
                          f"exit {proc.returncode}, {seconds:.1f} s of audio (at most {longest}), {err[-300:]}")
        print(f"     {elapsed:.1f} s, peak {rss_mb or 0:.0f} MB", flush=True)


# --- server ---------------------------------------------------------------------------------------

class Server:
    def __init__(self, warble, work, args=(), log="serve.log", env=None):
        self.log = open(os.path.join(work, log), "w+b")
        self.proc = subprocess.Popen([warble, "serve", "--port", "0", "--log-level", "warning", *args],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 120
        self.port = None
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline().decode(errors="replace")
            if not line:
                break
            self.log.write(line.encode())
            found = re.search(r"serving on http://[^:]+:(\d+)", line)
            if found:
                self.port = int(found.group(1))
                break
        if self.port is None:
            raise SystemExit("warble serve did not start (see serve.log)")
        # Keep draining stderr so the server never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stderr:
            self.log.write(line)

    def request(self, method, path, body=None, headers=None, timeout=300):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def health(self):
        status, body = self.request("GET", "/health", timeout=30)
        return json.loads(body) if status == 200 else {}

    def alive(self):
        try:
            status, _ = self.request("GET", "/health", timeout=30)
            return status == 200 and self.proc.poll() is None
        except OSError:
            return False

    def rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS line")

    def settled_rss_mb(self, at_most=None, timeout=15):
        """Resident memory once it stops falling (two reads 0.25 s apart within 1 MB), or as soon as it
        is at most `at_most`; the last read when `timeout` runs out."""
        deadline = time.monotonic() + timeout
        last = self.rss_mb()
        while time.monotonic() < deadline:
            if at_most is not None and last <= at_most:
                return last
            time.sleep(0.25)
            now = self.rss_mb()
            if at_most is None and abs(now - last) < 1:
                return now
            last = now
        return last

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def speech(server, text, response_format="wav", headers=None):
    body = json.dumps({"model": "tts-1", "voice": "en_US-joe-medium", "input": text,
                       "response_format": response_format}).encode()
    return server.request("POST", "/v1/audio/speech", body, {"Content-Type": "application/json", **(headers or {})})


def multipart(field_name, filename, data):
    boundary = "hostile-boundary-7d1"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n'.encode(),
        (f'--{boundary}\r\nContent-Disposition: form-data; name="{field_name}"; filename="{filename}"\r\n'
         f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + b"\r\n",
        f"--{boundary}--\r\n".encode(),
    ]
    return b"".join(parts), {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def wav_bytes(rate, seconds=1.0, channels=1):
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x00\x10" * int(rate * seconds) * channels)
    return buffer.getvalue()


def upload_cases(work):
    """(name, bytes): uploads that must be refused with 400."""
    one_hertz = wav_bytes(16000, seconds=0.6)
    one_hertz = one_hertz[:24] + struct.pack("<I", 1) + struct.pack("<I", 2) + one_hertz[32:]
    flac = os.path.join(work, "clip.flac")
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", flac, "synth", "20", "sine", "440"], check=True)
    whole = open(flac, "rb").read()
    long_path = os.path.join(work, "long.flac")
    subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", long_path, "trim", "0", "2000"], check=True)
    long_flac = open(long_path, "rb").read()
    return [
        ("a WAV whose header says 1 Hz", one_hertz),
        ("a WAV whose header says 1,000,000 Hz", wav_bytes(16000)[:24] + struct.pack("<I", 1000000)
         + struct.pack("<I", 2000000) + wav_bytes(16000)[32:]),
        ("a FLAC cut to 3 % of its bytes", whole[: len(whole) * 3 // 100]),
        ("a FLAC of 2,000 s (over the 1,800 s limit)", long_flac),
    ]


def run_server(results, warble, work):
    server = Server(warble, work)
    try:
        # Idle: the default voice loaded (the server preloads it) and one ordinary request answered.
        status, _ = speech(server, "Warming up.")
        results.check(status == 200, "server: an ordinary request", f"status {status}")
        idle = server.settled_rss_mb()
        # A burst of large answers, before anything else has grown the process: breaks up to the limit
        # in WAV and MP3, and long texts.
        long_text = " ".join(f"Sentence number {k} of a long answer goes on for a while." for k in range(60))
        burst = [speak("Start." + '<break time="10s"/> and' * 9 + " end.")] * 6 + [long_text] * 2
        peak = idle
        for k, text in enumerate(burst):
            status, _ = speech(server, text, "mp3" if k % 2 else "wav")
            peak = max(peak, server.rss_mb())
            if status != 200:
                results.check(False, "server: burst of large requests", f"status {status}")
                break
        # The engine gives freed memory back when the last synthesis ends.
        after = server.settled_rss_mb(at_most=idle * 1.3)
        ratio = after / idle
        results.check(ratio <= 1.3, "server: resident memory after the burst is within 1.3x of idle",
                      f"idle {idle:.0f} MB, peak {peak:.0f} MB, after {after:.0f} MB ({ratio:.2f}x)")
        print(f"FIGURE server memory: idle {idle:.0f} MB, peak {peak:.0f} MB during the burst, "
              f"after {after:.0f} MB ({ratio:.2f}x idle)", flush=True)
        for name, text, _, outcome, longest in CASES:
            label = f"server: {name}"
            try:
                status, body = speech(server, text)
            except OSError as error:
                results.check(False, label, f"connection failed: {error}")
                continue
            if outcome == REFUSED:
                message = body[:300].decode(errors="replace")
                results.check(status in CLIENT_ERRORS and b'"error"' in body, label, f"status {status}: {message}")
            else:
                seconds = wav_seconds(body)
                results.check(status == 200 and 0 < seconds <= longest, label,
                              f"status {status}, {seconds:.1f} s of audio (at most {longest})")
            results.check(server.alive(), f"server: /health after '{name}'", "the server is gone")
        for name, data in upload_cases(work):
            body, headers = multipart("file", "upload.bin", data)
            try:
                status, answer = server.request("POST", "/v1/audio/transcriptions", body, headers)
            except OSError as error:
                results.check(False, f"server upload: {name}", f"connection failed: {error}")
                continue
            results.check(status == 400, f"server upload: {name}", f"status {status}: {answer[:300]!r}")
            print(f"     {answer[:200].decode(errors='replace')}", flush=True)
            results.check(server.alive(), f"server: /health after upload '{name}'", "the server is gone")
        check_early_hang_ups(results, server)
    finally:
        server.stop()


def check_early_hang_ups(results, server):
    """Six clients hang up on long Kokoro requests as soon as the server holds them all (two running, four queued): the server must notice
    while they wait for a slot or render their first chunk, free every place at once, and admit new
    requests right after (before, each ran to its first chunk: 68 s busy, and 8 of 12 new requests got 429)."""
    _, body = server.request("GET", "/v1/audio/voices")
    kokoro = next((v["id"] for v in json.loads(body)["data"] if v["id"].startswith("kokoro-")), None)
    if kokoro is None:
        results.check(False, "server: early hang-ups", "no Kokoro voice installed")
        return
    status, _ = server.request("POST", "/v1/audio/speech", json.dumps(
        {"model": "tts-1", "voice": kokoro, "input": "Warming up.", "response_format": "wav"}).encode(),
        {"Content-Type": "application/json"})  # loads the model: later requests render at once
    long_text = " ".join(["This sentence goes on and on without a pause so that its first chunk takes a long time"] * 40)
    request = json.dumps({"model": "tts-1", "voice": kokoro, "input": long_text[:4000], "response_format": "wav"}).encode()
    head = (f"POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(request)}\r\n\r\n").encode()
    before = server.health()["requests"]["cancelled"]
    clients = []
    for _ in range(6):
        client = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        client.sendall(head + request)
        clients.append(client)
    # Hang up once the server holds all six (two running, four queued): waiting on its count, not on a fixed
    # delay, so that a busy machine cannot make one request arrive after its client has gone.
    admitted_by = time.monotonic() + 30
    while time.monotonic() < admitted_by:
        health = server.health()
        if health.get("active", 0) + health.get("queued", 0) >= 6:
            break
        time.sleep(0.02)
    hung_up = time.monotonic()
    for client in clients:
        client.close()
    health = {}
    # Until every place is free and every hang-up counted (a request's end is noticed a moment after its hang-up).
    # CI once saw 0 running, 0 queued, 5 cancelled for good: a slot handed to a waiter whose client had just gone
    # was released uncounted, fixed in AdmissionControl (bb4c0fb); so the check asks for all six.
    while time.monotonic() - hung_up < 30:
        health = server.health()
        if health["active"] == 0 and health["queued"] == 0 and health["requests"]["cancelled"] - before >= 6:
            break
        time.sleep(0.05)
    freed = time.monotonic() - hung_up
    cancelled = health["requests"]["cancelled"] - before
    results.check(health.get("active") == 0 and health.get("queued") == 0 and freed < 10 and cancelled == 6,
                  "server: six clients hanging up before their first audio free their places at once",
                  f"after {freed:.1f} s: {health.get('active')} running, {health.get('queued')} queued, {cancelled} cancelled")
    print(f"FIGURE early hang-ups: 6 long Kokoro requests dropped once admitted; all places free {freed:.2f} s later "
          f"({cancelled} cancelled)", flush=True)
    # Ten new requests at once (two slots, eight queue places): none may be refused.
    statuses = []

    def short():
        statuses.append(speech(server, "Admitted right after.")[0])
    threads = [threading.Thread(target=short) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.check(statuses == [200] * 10, "server: ten new requests right after the hang-ups are all answered",
                  f"statuses {sorted(statuses)}")


# --- server connections --------------------------------------------------------------------------

HALF_HEADERS = b"POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"


def read_until_closed(sockets, limit):
    """What each socket received until the server closed it, and how many were still open after `limit` s."""
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, bytearray())
    answers = []
    deadline = time.monotonic() + limit
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
            try:
                data = key.fileobj.recv(65536)
            except (ConnectionResetError, BlockingIOError):
                data = b""
            if data:
                key.data.extend(data)
            else:
                answers.append(bytes(key.data))
                selector.unregister(key.fileobj)
                key.fileobj.close()
    still_open = len(selector.get_map())
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    return answers, still_open


def stalled_round(results, server, round_number):
    """1,000 connections stalled in their headers, one more past the cap; (held MB, after MB, seconds until all closed)."""
    # A kept-alive connection reads /health: once it counts 1,001 open (itself and the 1,000), the cap is full.
    monitor = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    monitor.request("GET", "/health")
    monitor.getresponse().read()
    stalled = []
    started = time.monotonic()
    for _ in range(1000):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        sock.sendall(HALF_HEADERS)
        stalled.append(sock)
    while time.monotonic() - started < 10:
        try:
            monitor.request("GET", "/health")
            if json.loads(monitor.getresponse().read())["connections"]["open"] == 1001:
                break
        except (http.client.RemoteDisconnected, ConnectionError):
            monitor.close()  # closed as idle (1 s) while the 1,000 were opened: the next request reconnects
        time.sleep(0.02)
    # Past the cap (the monitor still holds its place): answered 503 before its request is read.
    extra = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    extra.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    (refusal,), _ = read_until_closed([extra], 10)
    monitor.close()
    body = refusal.partition(b"\r\n\r\n")[2]
    results.check(refusal.startswith(b"HTTP/1.1 503") and b"Connection: close\r\n" in refusal
                  and b'"code":"too_many_connections"' in body,
                  f"server connections ({round_number}): a connection past the cap of 1,001 gets 503 with Connection: close",
                  f"{refusal[:300]!r}")
    held_mb = server.rss_mb()
    answers, still_open = read_until_closed(stalled, 5 + 10)
    took = time.monotonic() - started
    timed_out = sum(1 for answer in answers if answer.startswith(b"HTTP/1.1 408"))
    results.check(still_open == 0 and timed_out == 1000,
                  f"server connections ({round_number}): 1,000 connections stalled in their headers get 408 and are closed",
                  f"{timed_out} answered 408, {still_open} still open {took:.1f} s after the first")
    return held_mb, server.settled_rss_mb(), took


def own_home(work, home, name):
    """A WARBLE_HOME of its own (its history and voice library start empty) sharing `home`'s models and runtime."""
    path = os.path.join(work, name)
    os.makedirs(path, exist_ok=True)
    for part in ("models", "lib"):
        if not os.path.exists(os.path.join(path, part)):
            os.symlink(os.path.join(home, part), os.path.join(path, part))
    return path


def crafted_archive(path, field, value):
    """A history archive whose audio is whole (its SHA-256 matches) but whose first session's `field` is `value`."""
    import hashlib
    import zipfile
    audio = wav_bytes(16000, seconds=0.5)
    session = {"id": 1, "kind": "speech", "createdAt": 1790000000.0, "model": "piper-en_US-joe-medium",
               "voice": "en_US-joe-medium", "timings": {"synthesis": 0.5}, "texts": [{"role": "source", "text": "Hello."}],
               "audio": [{"role": "output", "format": "wav", "sha256": hashlib.sha256(audio).hexdigest(),
                          "bytes": len(audio), "path": "sessions/1-speech/output.wav"}],
               "folder": "sessions/1-speech/"}
    session[field] = value
    manifest = {"format": "warble-history", "version": 1, "created": "2026-11-28T10:00:00Z", "sessions": [session]}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        archive.writestr("sessions/1-speech/output.wav", audio)


def run_imports(results, warble, work, home):
    """Crafted imports and answers that would leak the server's files: file paths as voices (refused without a word
    of the path), a voice clone whose consent note carries escape sequences (refused before any search), a session's
    answer without the server's paths, and history archives whose audio is whole but whose fields are crafted (a
    date in the year 5 million, escape sequences, a path as a language): refused, nothing imported."""
    env = dict(os.environ, WARBLE_HOME=own_home(work, home, "imports-home"))
    key = "hostile-key"
    server = Server(warble, work, ["--api-key", key, "--history"], log="serve-imports.log", env=env)
    auth = {"Authorization": f"Bearer {key}"}
    try:
        for path in ("/etc/shadow", "/root/.bash_history", "./x.onnx", "~/voice", "../models/silero-vad/silero_vad.onnx"):
            body = json.dumps({"model": "tts-1", "voice": path, "input": "Hello."}).encode()
            status, answer = server.request("POST", "/v1/audio/speech", body, {"Content-Type": "application/json", **auth})
            results.check(status == 400 and path.encode() not in answer and b"/root" not in answer,
                          f"server imports: voice {path!r} is refused without echoing a path", f"{status}: {answer[:200]!r}")
        boundary = "hostile-voice-3f2"
        fields = [("name", "crafted"), ("model", "kokoro"), ("consent", "\x1b[2J\x1b[31mmine\x1b[0m")]
        body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields)
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.wav"\r\n'
                 "Content-Type: audio/wav\r\n\r\n").encode() + wav_bytes(16000, seconds=6) + f"\r\n--{boundary}--\r\n".encode()
        started = time.monotonic()
        status, answer = server.request("POST", "/v1/audio/voices", body,
                                        {"Content-Type": f"multipart/form-data; boundary={boundary}", **auth})
        results.check(status == 400 and b"control characters" in answer and time.monotonic() - started < 10,
                      "server imports: a consent note with escape sequences is refused before the clone starts",
                      f"{status}: {answer[:200]!r}")
        status, _ = speech(server, "Kept in the history.", headers=auth)
        status2, page = server.request("GET", "/v1/history?limit=1", headers=auth)
        sessions = json.loads(page).get("data", []) if status2 == 200 else []
        if sessions:
            status3, shown = server.request("GET", f"/v1/history/{sessions[0]['id']}", headers=auth)
            results.check(status3 == 200 and b"/history/audio/" not in shown and env["WARBLE_HOME"].encode() not in shown,
                          "server imports: GET /v1/history/{id} holds no server path", f"{status3}: {shown[:300]!r}")
        else:
            results.check(False, "server imports: the spoken request is kept in the history", f"{status}, {status2}: {page[:200]!r}")
    finally:
        server.stop()
    # The same archive with its fields as written imports: the refusals below are the fields', not the archive's.
    archive = os.path.join(work, "plain.zip")
    crafted_archive(archive, "voice", "en_US-joe-medium")
    proc = subprocess.run([warble, "history", "import", archive], env=env, capture_output=True, text=True, timeout=60)
    results.check(proc.returncode == 0 and "Imported 1 session" in proc.stdout, "history import: the plain archive imports",
                  f"exit {proc.returncode}: {proc.stdout[-200:]!r} {proc.stderr[-300:]!r}")
    for field, value in (("createdAt", 1e308), ("model", "\x1b[31mred\x1b[0m"), ("sourceLanguage", "../etc"),
                         ("duration", -1), ("timings", {"synthesis": 1e308})):
        archive = os.path.join(work, "crafted.zip")
        crafted_archive(archive, field, value)
        before = subprocess.run([warble, "history", "list", "--json"], env=env, capture_output=True, text=True).stdout
        proc = subprocess.run([warble, "history", "import", archive], env=env, capture_output=True, text=True, timeout=60)
        after = subprocess.run([warble, "history", "list", "--json"], env=env, capture_output=True, text=True).stdout
        results.check(proc.returncode == 1 and "nothing was imported" in proc.stderr and "\x1b" not in proc.stderr
                      and before == after, f"history import: a crafted {field} ({value!r}) is refused, nothing imported",
                      f"exit {proc.returncode}: {proc.stderr[-300:]!r}")


def run_server_connections(results, warble, work):
    """Clients that stall or crowd the server: a body short of its length and an idle kept-alive connection
    are closed by the body and idle timeouts (1 s here), 1,000 connections stalled in their headers are all
    held until the header timeout (5 s here) and then closed with 408, a connection past the cap (1,001: the
    1,000 and one reading /health) is answered 503 at once, and resident memory comes back once they are gone."""
    server = Server(warble, work, ["--header-timeout", "5", "--body-timeout", "1", "--idle-timeout", "1",
                                   "--max-connections", "1001"], log="serve-connections.log")
    try:
        short = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        short.sendall(HALF_HEADERS + b"Content-Length: 1000\r\n\r\n0123456789")
        started = time.monotonic()
        (answer,), still_open = read_until_closed([short], 15)
        took = time.monotonic() - started
        results.check(still_open == 0 and answer.startswith(b"HTTP/1.1 408") and b"request_timeout" in answer and took < 5,
                      "server connections: a body short of its Content-Length gets 408 and is closed",
                      f"{took:.1f} s: {answer[:200]!r}")
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        idle.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        started = time.monotonic()
        (answer,), still_open = read_until_closed([idle], 15)
        took = time.monotonic() - started
        results.check(still_open == 0 and answer.startswith(b"HTTP/1.1 200") and answer.count(b"HTTP/1.1 ") == 1 and took < 5,
                      "server connections: a kept-alive connection without a next request is closed",
                      f"{took:.1f} s: {answer[:200]!r}")

        idle_mb = server.settled_rss_mb()
        rounds = []
        for round_number in (1, 2):
            rounds.append(stalled_round(results, server, round_number))
        (held1, after1, took1), (held2, after2, _) = rounds
        health = server.health()
        results.check(after1 <= idle_mb * 1.25 and after2 <= after1 * 1.05 + 2 and health.get("connections", {}).get("open") == 1,
                      "server connections: memory comes back once they are closed, and a second crowd does not add to it",
                      f"idle {idle_mb:.0f} MB; round 1 held {held1:.0f}, after {after1:.0f}; round 2 held {held2:.0f}, "
                      f"after {after2:.0f} MB; {health.get('connections')}")
        print(f"FIGURE stalled connections: resident memory idle {idle_mb:.0f} MB; {held1:.0f} MB with 1,000 stalled, "
              f"{after1:.0f} MB after they were closed ({took1:.1f} s after the first opened); a second 1,000: "
              f"{held2:.0f} MB held, {after2:.0f} MB after; {health.get('connections')}", flush=True)
        results.check(server.alive(), "server connections: /health after the crowd", "the server is gone")
    finally:
        server.stop()


# --- sd_warble ------------------------------------------------------------------------------------

class Module:
    """sd_warble spoken to over speech-dispatcher's output-module protocol on its standard streams."""

    def __init__(self, binary, work, home):
        conf = os.path.join(work, "warble.conf")
        with open(conf, "w") as f:
            f.write(f'WarbleDefaultVoice "en_US-joe-medium"\nWarbleHome "{home}"\n')
        self.proc = subprocess.Popen([binary, conf], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(os.path.join(work, "sd_warble.stderr"), "wb"))

    def send(self, *lines):
        self.proc.stdin.write(b"".join(line.encode() + b"\n" for line in lines))
        self.proc.stdin.flush()

    def line(self):
        data = self.proc.stdout.readline()
        if not data:
            raise EOFError("sd_warble closed its output")
        return data.rstrip(b"\n")

    def until(self, final_prefix):
        lines = []
        while True:
            line = self.line()
            lines.append(line)
            if line.startswith(final_prefix):
                return lines

    def start(self):
        self.send("INIT")
        self.until(b"299 ")
        self.send("AUDIO", "audio_output_method=server", ".")
        self.until(b"203 ")

    def speak(self, text, stop_after=None):
        """Samples received and the final reply (702 END, 703 STOP…). The module sends audio at the pace
        of playback, so a long answer is stopped once `stop_after` seconds of it have arrived."""
        self.send("SET", "voice=MALE1", ".")
        self.until(b"203 OK SETTINGS")
        data = [".." if line == "." else line for line in text.split("\n")]
        self.send("SPEAK", *data, ".")
        samples = 0
        stopped = False
        while True:
            line = self.line()
            if line.startswith(b"705-num_samples="):
                samples += int(line.split(b"=")[1])
                if stop_after is not None and not stopped and samples >= stop_after * 22050:
                    self.send("STOP")
                    stopped = True
            if line[:4] in (b"702 ", b"703 ", b"704 "):
                return samples, line.decode()


def run_module(results, binary, work, home):
    module = Module(binary, work, home)
    try:
        module.start()
        for name, text, outcome, _, longest in CASES:
            label = f"sd_warble: {name}"
            # Long answers: the first 5 s must come, then STOP ends the message (703); a short message
            # after it shows the module still speaks.
            long = outcome == SPOKEN and longest > 30
            try:
                samples, final = module.speak(text, stop_after=5 if long else None)
                if long:
                    results.check(final.startswith("703") and samples >= 5 * 22050, label,
                                  f"{final}, {samples / 22050:.1f} s of audio before STOP")
                    samples, final = module.speak("Still here.")
                    label = f"sd_warble: speaks after '{name}'"
                    outcome, longest = SPOKEN, 5
            except EOFError as error:
                results.check(False, label, str(error))
                module = Module(binary, work, home)
                module.start()
                continue
            seconds = samples / 22050
            # Refused markup is spoken as plain text: a screen-reader user never hears silence.
            bound = longest if outcome == SPOKEN else 60
            results.check(final.startswith("702") and 0 < seconds <= bound, label,
                          f"{final}, {seconds:.1f} s of audio (at most {bound})")
        module.send("QUIT")
        module.until(b"210 ")
    finally:
        module.proc.kill()
    log = open(os.path.join(work, "sd_warble.stderr"), "rb").read().decode(errors="replace")
    results.check("speaking its text without the markup" in log,
                  "sd_warble: logs why it spoke bad markup as plain text", log[-300:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warble", required=True)
    parser.add_argument("--sd-warble", required=True)
    parser.add_argument("--only", choices=["cli", "server", "module"], action="append")
    args = parser.parse_args()
    home = os.environ.get("WARBLE_HOME") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "warble")
    results = Results()
    with tempfile.TemporaryDirectory() as work:
        parts = args.only or ["cli", "server", "module"]
        if "cli" in parts:
            run_cli(results, args.warble, work)
        if "server" in parts:
            run_server(results, args.warble, work)
            run_server_connections(results, args.warble, work)
            run_imports(results, args.warble, work, home)
        if "module" in parts:
            run_module(results, args.sd_warble, work, home)
    print(f"{results.passed} passed, {results.failed} failed")
    sys.exit(1 if results.failed else 0)


if __name__ == "__main__":
    main()
