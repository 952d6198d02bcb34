"""Hostile inputs through every entry point: `warble say`, `warble serve` and `sd_warble`.

Each case is a small text or SSML document (or an audio upload) that once crashed, hung or exhausted
Warble, or a neighbour of one. Every entry point must answer it with a clear error, or with audio whose
length, time and memory grow with the length of the text and never with a number written in it:
- CLI: exit 0 or 1 (never a signal), an "Error:" line for refused input, audio within the case's
  bound, peak resident memory under 1.2 GB;
- server: 200 or 400/413 (never a dropped connection), `/health` answering after every case, and
  after a burst of large requests, resident memory within 1.3x of the idle level;
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
import struct
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
    ["serve", "--max-connections", "0"],
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
    def __init__(self, warble, work):
        self.log = open(os.path.join(work, "serve.log"), "w+b")
        self.proc = subprocess.Popen([warble, "serve", "--port", "0", "--log-level", "warning"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
        import threading
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


def speech(server, text, response_format="wav"):
    body = json.dumps({"model": "tts-1", "voice": "en_US-joe-medium", "input": text,
                       "response_format": response_format}).encode()
    return server.request("POST", "/v1/audio/speech", body, {"Content-Type": "application/json"})


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
        if "module" in parts:
            run_module(results, args.sd_warble, work, home)
    print(f"{results.passed} passed, {results.failed} failed")
    sys.exit(1 if results.failed else 0)


if __name__ == "__main__":
    main()
