"""End-to-end check of `warble serve` with OpenAI's official Python client, curl and a raw socket.

Run by scripts/test-server-e2e.sh, which builds warble, starts the server and passes its address,
API key and process id. Every check decodes the audio it receives (sample rate, duration, level).
Prints one line per check, then the failures and "e2e.py: N passed, N failed"; exits non-zero
when a check failed.
"""

import argparse
import hashlib
import io
import json
import os
import signal
import socket
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import wave
import zipfile

import numpy as np
import openai
import soundfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PIPER = "en_US-joe-medium"  # 22050 Hz
TEXT = "Hello from Warble. This sentence is spoken by a local voice, streamed as it is made."
LONG = " ".join(f"This is sentence number {i}, long enough to take a moment to speak." for i in range(1, 41))

ASR_TEXT = "The quick brown fox jumps over the lazy dog near the river bank."

failures: list[str] = []
passed = 0


def check(condition: bool, what: str) -> None:
    global passed
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if condition:
        passed += 1
    else:
        failures.append(what)


def decode(data: bytes, *, pcm: bool = False) -> tuple[np.ndarray, int]:
    if pcm:
        return np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768.0, 24000
    samples, rate = soundfile.read(io.BytesIO(data), dtype="float32")
    return samples, rate


def check_audio(name: str, data: bytes, rate: int, *, pcm: bool = False, min_s: float = 2.0, max_s: float = 15.0):
    samples, got = decode(data, pcm=pcm)
    duration = len(samples) / got
    rms = float(np.sqrt(np.mean(np.square(samples)))) if len(samples) else 0.0
    check(got == rate, f"{name}: sample rate {got} == {rate}")
    check(min_s <= duration <= max_s, f"{name}: duration {duration:.2f} s within [{min_s}, {max_s}]")
    check(rms > 0.01, f"{name}: not silent (RMS {rms:.3f} > 0.01)")
    return duration


def words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split()


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word-level Levenshtein distance over the reference's length."""
    ref, hyp = words(reference), words(hypothesis)
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (r != h))
    return row[len(hyp)] / max(1, len(ref))


def check_words(name: str, text: str, *, at_most: float = 0.2) -> None:
    wer = word_error_rate(ASR_TEXT, text)
    check(wer <= at_most, f"{name}: word error rate {wer:.2f} <= {at_most} ({text.strip()!r})")


def subtitle_text(subtitles: str) -> str:
    """The cue text of SubRip or WebVTT: no header, numbers or time lines."""
    return " ".join(line for line in subtitles.splitlines()
                    if line.strip() and "-->" not in line and not line.strip().isdigit() and line.strip() != "WEBVTT")


def check_recognition(client: openai.OpenAI, base: str, key: str) -> None:
    """Transcription and translation of a clip our own voice speaks, in every response_format."""
    clip = client.audio.speech.create(model="tts-1", voice=PIPER, input=ASR_TEXT, response_format="wav").content
    with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
        wav.write(clip)
        wav.flush()
        started = time.monotonic()
        result = client.audio.transcriptions.create(model="whisper-1", file=open(wav.name, "rb"))
        print(f"     transcription (json, model load included): {time.monotonic() - started:.2f} s", flush=True)
        check_words("transcribe json", result.text)
    # whisper-1 asked for a language its default model (English-only) cannot take stands for a model that can.
    models = {m.id for m in client.models.list().data}
    if "whisper-base" in models:
        with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
            wav.write(clip)
            wav.flush()
            german = client.audio.transcriptions.create(model="whisper-1", file=open(wav.name, "rb"), language="de",
                                                        response_format="verbose_json")
            check(german.language == "german", f"whisper-1 with language=de is transcribed by a multilingual model ({german.language})")
        # German speech sent to whisper-1 with no language: the English-only default would make English of it.
        wetter = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/Fixtures/generated/asr/de_wetter.wav")
        heard = client.audio.transcriptions.create(model="whisper-1", file=open(wetter, "rb"), response_format="verbose_json")
        check(heard.language == "german" and "München" in heard.text,
              f"whisper-1 hears German speech and transcribes it with a multilingual model ({heard.language}: {heard.text!r})")
    # What the server writes it reads: the same sentence as AAC, transcribed.
    spoken_aac = client.audio.speech.create(model="tts-1", voice=PIPER, input=ASR_TEXT, response_format="aac").content
    with tempfile.NamedTemporaryFile(suffix=".aac") as aac_file:
        aac_file.write(spoken_aac)
        aac_file.flush()
        check_words("transcribe aac (the server's own response_format)",
                    client.audio.transcriptions.create(model="whisper-1", file=open(aac_file.name, "rb")).text)
    with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
        wav.write(clip)
        wav.flush()
        for name in ("gpt-4o-transcribe", "gpt-4o-mini-transcribe"):
            check_words(f"transcribe json (model {name})",
                        client.audio.transcriptions.create(model=name, file=open(wav.name, "rb")).text)
        # Streamed transcription as the official client reads it: deltas a segment at a time, then done.
        events = list(client.audio.transcriptions.create(model="gpt-4o-mini-transcribe", file=open(wav.name, "rb"),
                                                         stream=True))
        deltas = [e.delta for e in events if e.type == "transcript.text.delta"]
        check(len(deltas) >= 1 and events[-1].type == "transcript.text.done",
              f"streamed transcription: {len(deltas)} delta event(s), then {events[-1].type if events else 'nothing'}")
        check(events[-1].text == "".join(deltas).strip(), "streamed transcription: done text is the deltas joined")
        check_words("streamed transcription", events[-1].text)
        text = client.audio.transcriptions.create(model="whisper-1", file=open(wav.name, "rb"), response_format="text")
        check(isinstance(text, str), "transcribe text: a string")
        check_words("transcribe text", text)
        srt = client.audio.transcriptions.create(model="whisper-tiny.en", file=open(wav.name, "rb"), response_format="srt")
        check(srt.startswith("1\n00:00:0") and " --> " in srt, f"transcribe srt: numbered cues with times ({srt[:40]!r})")
        check_words("transcribe srt", subtitle_text(srt))
        vtt = client.audio.transcriptions.create(model="whisper-1", file=open(wav.name, "rb"), response_format="vtt",
                                                 language="en")
        check(vtt.startswith("WEBVTT\n\n00:00:0"), f"transcribe vtt: WEBVTT header and cues ({vtt[:30]!r})")
        check_words("transcribe vtt", subtitle_text(vtt))
        verbose = client.audio.transcriptions.create(model="whisper-1", file=open(wav.name, "rb"),
                                                     response_format="verbose_json", timestamp_granularities=["segment"],
                                                     prompt="A fox by the river.", temperature=0)
        duration = len(soundfile.read(io.BytesIO(clip))[0]) / 22050
        check(abs(verbose.duration - duration) < 0.01, f"verbose_json: duration {verbose.duration:.2f} s == {duration:.2f} s")
        check(verbose.language == "english", f"verbose_json: language {verbose.language!r}")
        segments = verbose.segments or []
        # Whisper's timestamps can run a little past the end of the audio: no upper bound on `end`.
        check(len(segments) >= 1 and 0 <= segments[0].start < 1
              and all(s.start < s.end and s.tokens and s.avg_logprob <= 0 for s in segments),
              f"verbose_json: segments with times, tokens and scores ({segments})")
        check_words("transcribe verbose_json", verbose.text)
        timed = client.audio.transcriptions.create(model="whisper-1", file=open(wav.name, "rb"),
                                                   response_format="verbose_json", timestamp_granularities=["word"])
        words = timed.words or []
        check(len(words) >= 3 and not timed.segments
              and all(w.word == w.word.strip() and 0 <= w.start <= w.end for w in words)
              and all(a.end <= b.start + 1e-9 for a, b in zip(words, words[1:])),
              f"verbose_json with word timestamps: words in order with times, no segments ({words[:3]}...)")
        check_words("word timestamps", " ".join(w.word for w in words))
        started = time.monotonic()
        translation = client.audio.translations.create(model="whisper-1", file=open(wav.name, "rb"))
        print(f"     translation (whisper-base, model load included): {time.monotonic() - started:.2f} s", flush=True)
        check_words("translate json", translation.text, at_most=0.3)
        # curl -F, as the README shows it.
        out = subprocess.run(["curl", "-sS", "--fail-with-body", "-H", f"Authorization: Bearer {key}",
                              "-F", f"file=@{wav.name}", "-F", "model=whisper-tiny.en", "-F", "response_format=text",
                              base + "/audio/transcriptions"], capture_output=True, timeout=120)
        check(out.returncode == 0, f"curl multipart: success ({out.stderr.decode().strip()[:200]})")
        check_words("curl multipart text", out.stdout.decode())
    # A client that hangs up cancels its transcription (30 s of audio, so it cannot finish first).
    samples, rate = soundfile.read(io.BytesIO(clip), dtype="float32")
    long_clip = io.BytesIO()
    soundfile.write(long_clip, np.tile(samples, 8), rate, format="WAV", subtype="PCM_16")
    boundary = "e2e-boundary-5f1c"
    payload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n"
               f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"long.wav\"\r\n"
               "Content-Type: audio/wav\r\n\r\n").encode() + long_clip.getvalue() + f"\r\n--{boundary}--\r\n".encode()
    before = health(base, key)["requests"]["cancelled"]
    host, port = base.split("//")[1].split("/")[0].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(b"POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\n"
                     + f"Content-Type: multipart/form-data; boundary={boundary}\r\nAuthorization: Bearer {key}\r\n"
                       f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
        # Hang up once the server is working on it (its health counts it), not after a fixed delay.
        deadline = time.monotonic() + 30
        while health(base, key)["active"] == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
    check_cancelled("transcription disconnect", base, key, before)
    try:
        client.audio.transcriptions.create(model="whisper-1", file=("notes.txt", b"not audio at all", "text/plain"))
        check(False, "non-audio upload raises BadRequestError")
    except openai.BadRequestError as error:
        check("not audio" in str(error) and "notes.txt" in str(error), "non-audio upload: 400 saying what it found")
    try:
        client.audio.transcriptions.create(model="whisper-9", file=("a.wav", clip, "audio/wav"))
        check(False, "unknown model raises NotFoundError")
    except openai.NotFoundError as error:
        check("whisper-tiny.en" in str(error), "unknown model: 404 listing the installed ones")


def check_voice_library(client: openai.OpenAI, base: str, key: str) -> None:
    name = f"e2e-clone-{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp:
        clip = os.path.join(tmp, "clip.wav")
        with open(clip, "wb") as f:
            f.write(client.audio.speech.create(model="tts-1", voice=PIPER, input=ASR_TEXT + " " + TEXT,
                                               response_format="wav").read())
        def post(*fields: str) -> tuple[int, dict]:
            out = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {key}",
                                  *sum((["-F", x] for x in fields), []), f"{base}/audio/voices"],
                                 capture_output=True, text=True, timeout=600)
            body, _, code = out.stdout.rpartition("\n")
            return int(code), json.loads(body or "{}")
        code, body = post(f"name={name}", f"file=@{clip}", "model=kokoro", "budget=5", "keep_stock=true", "consent=e2e synthetic voice")
        check(code == 201 and body.get("id") == name and body.get("object") == "voice",
              f"voices: POST clones a voice from a clip ({code}, {body})")
        check(isinstance(body.get("similarity"), float) and body.get("start_voice", "").startswith("kokoro-"),
              f"voices: the answer has the similarity and the start voice ({body})")
        listed = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{base}/audio/voices", headers={"Authorization": f"Bearer {key}"}), timeout=30).read())
        check(any(v.get("id") == name for v in listed.get("voices", listed.get("data", []))),
              "voices: the new voice is listed at once")
        audio = client.audio.speech.create(model="tts-1", voice=name, input="A cloned voice, served.",
                                           response_format="wav").read()
        check_audio("voices: the cloned voice speaks", audio, 24000, min_s=1.0)
        silent = os.path.join(tmp, "silent.wav")
        soundfile.write(silent, np.zeros(16000 * 4, dtype=np.float32), 16000)
        code, body = post("name=e2e-silent", f"file=@{silent}", "model=kokoro")
        check(code == 400 and "no speech was heard" in body.get("error", {}).get("message", ""),
              f"voices: a silent clip is 400 with what to record ({code})")
        code, body = post("name=e2e-crafted", f"file=@{clip}", "model=kokoro", "consent=\x1b[2J\x1b[31mmine\x1b[0m")
        check(code == 400 and "control characters" in body.get("error", {}).get("message", ""),
              f"voices: a consent note with escape sequences is 400 before any search ({code}, {body})")
    request = urllib.request.Request(f"{base}/audio/voices/{name}", method="DELETE",
                                     headers={"Authorization": f"Bearer {key}"})
    deleted = json.loads(urllib.request.urlopen(request, timeout=30).read())
    check(deleted.get("deleted") is True, "voices: DELETE removes it")
    try:
        urllib.request.urlopen(request, timeout=30)
        check(False, "voices: deleting it again is 404")
    except urllib.error.HTTPError as error:
        check(error.code == 404, f"voices: deleting it again is 404 ({error.code})")


def check_history(client: openai.OpenAI, base: str, key: str) -> None:
    """The server runs with --history: a speech request spoken to its end is kept (text and audio), and the
    /v1/history routes list, show, page, export (ZIP) and delete it, behind the API key."""
    text = f"History keeps this sentence, number {os.getpid()}."
    spoken = client.audio.speech.create(model="tts-1", voice=PIPER, input=text, response_format="wav").read()

    def get(path: str, *, with_key: bool = True) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {key}"} if with_key else {}
        try:
            with urllib.request.urlopen(urllib.request.Request(f"{base}{path}", headers=headers), timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    code, body = get("/history?limit=100")
    page = json.loads(body)
    mine = [s for s in page.get("data", []) if s.get("kind") == "speech" and s.get("preview") == text]
    check(code == 200 and page.get("object") == "list" and len(mine) == 1,
          f"history: the speech request is listed with its text ({code}, {len(mine)} of {len(page.get('data', []))})")
    check(any(s.get("kind") == "transcription" for s in page.get("data", [])), "history: the transcription requests are listed")
    if not mine:
        return
    sid = mine[0]["id"]
    code, body = get(f"/history/{sid}")
    session = json.loads(body)
    texts = {t["role"]: t["text"] for t in session.get("texts", [])}
    audio = [a for a in session.get("audio", []) if a.get("role") == "output"]
    check(code == 200 and texts.get("source") == text and session.get("summary", {}).get("voice") == PIPER and len(audio) == 1,
          f"history: GET /history/{{id}} has the text, the voice and the audio ({code}, {texts}, {audio})")
    check(b"/history/audio/" not in body
          and all("path" not in a for a in session.get("audio", [])),
          f"history: GET /history/{{id}} shows no server path ({[sorted(a) for a in session.get('audio', [])]})")
    code, body = get("/history?limit=1")
    first = json.loads(body)
    code2, body2 = get(f"/history?limit=1&after={first.get('last_id')}")
    second = json.loads(body2)
    check(code == 200 and len(first["data"]) == 1 and first["has_more"] is True and code2 == 200
          and second["data"] and second["data"][0]["id"] < first["last_id"],
          f"history: limit and after page through the sessions, newest first ({first.get('last_id')}, {second.get('first_id')})")
    code, body = get(f"/history?q=keeps%20{os.getpid()}")
    found = json.loads(body)
    code2, _ = get("/history?q=no-such-word-anywhere")
    check(code == 200 and [s["id"] for s in found.get("data", [])] == [sid] and code2 == 200,
          f"history: q finds the sessions whose texts hold every word ({code}, {[s['id'] for s in found.get('data', [])]})")
    code, archive = get(f"/history/{sid}/export")
    try:
        with zipfile.ZipFile(io.BytesIO(archive)) as z:
            names = z.namelist()
            manifest = json.loads(z.read("manifest.json"))
            wavs = [z.read(n) for n in names if n.endswith(".wav")]
    except (zipfile.BadZipFile, KeyError) as error:
        names, manifest, wavs = [str(error)], {}, []
    same = [w for w in wavs if hashlib.sha256(w).hexdigest() == audio[0].get("sha256")] if audio else []
    check(code == 200 and bool(manifest) and len(same) == 1, f"history: export is a ZIP with manifest.json and the audio, byte for byte ({code}, {names})")
    if same:
        kept, rate = decode(same[0])
        heard, heard_rate = decode(spoken)
        check(rate == heard_rate and np.array_equal(kept, heard), "history: the kept audio is the audio the client got")
    code, _ = get("/history", with_key=False)
    check(code == 401, f"history: without the API key, 401 ({code})")
    code, body = get("/history?limit=0")
    check(code == 400 and "limit" in body.decode(), f"history: limit=0 is 400 ({code})")
    code, _ = get("/history/abc")
    check(code == 400, f"history: a malformed id is 400 ({code})")
    request = urllib.request.Request(f"{base}/history/{sid}", method="DELETE", headers={"Authorization": f"Bearer {key}"})
    check(json.loads(urllib.request.urlopen(request, timeout=30).read()).get("deleted") is True, "history: DELETE removes the session")
    code, _ = get(f"/history/{sid}")
    code2, _ = get(f"/history/{sid}/export")
    check(code == 404 and code2 == 404, f"history: then it is 404, and so is its export ({code}, {code2})")


def check_cosyvoice3(client: openai.OpenAI, base: str, key: str) -> None:
    """A CosyVoice 3 voice (tools/cosyvoice3's synthetic graphs, installed by test-server-e2e.sh) cloned
    from an uploaded clip and its transcript, then spoken: 24 kHz, whole speech tokens (960 samples),
    streamed as raw PCM with the same samples; the seed and OpenAI's `instructions` reach the model."""
    name = f"e2e-cosy-{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp:
        clip = os.path.join(tmp, "clip.wav")
        with open(clip, "wb") as f:
            f.write(client.audio.speech.create(model="tts-1", voice=PIPER, input=ASR_TEXT, response_format="wav").read())
        out = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {key}",
                              "-F", f"name={name}", "-F", f"file=@{clip}", "-F", "model=cosyvoice3",
                              "-F", f"transcript={ASR_TEXT}", "-F", "consent=e2e synthetic voice", f"{base}/audio/voices"],
                             capture_output=True, text=True, timeout=600)
        body, _, code = out.stdout.rpartition("\n")
        answer = json.loads(body or "{}")
        check(code == "201" and answer.get("id") == name, f"cosyvoice3: POST /audio/voices clones from a clip and its transcript ({code})")

    def speak(**extra) -> np.ndarray:
        data = client.audio.speech.create(model="tts-1", voice=name, input="Good morning!", response_format="wav", **extra).read()
        samples, rate = decode(data)
        check(rate == 24000, f"cosyvoice3: 24 kHz ({rate}) {extra or ''}")
        return samples

    plain = speak()
    check(len(plain) > 0 and len(plain) % 960 == 0, f"cosyvoice3: whole speech tokens ({len(plain)} samples, 960 a token)")
    with client.audio.speech.with_streaming_response.create(model="tts-1", voice=name, input="Good morning!",
                                                            response_format="pcm") as response:
        streamed = b"".join(response.iter_bytes())
    check(len(streamed) == 2 * len(plain), f"cosyvoice3: streamed PCM has the same length ({len(streamed) // 2} samples)")
    check(np.array_equal(speak(extra_body={"seed": 1986}), plain), "cosyvoice3: seed 1986 is the default")
    check(not np.array_equal(speak(extra_body={"seed": 5}), plain), "cosyvoice3: another seed, other audio")
    check(not np.array_equal(speak(instructions="Speak slowly and warmly."), plain), "cosyvoice3: instructions reach the model")
    request = urllib.request.Request(f"{base}/audio/voices/{name}", method="DELETE", headers={"Authorization": f"Bearer {key}"})
    check(json.loads(urllib.request.urlopen(request, timeout=30).read()).get("deleted") is True, "cosyvoice3: the voice is deleted")


def check_chatterbox(client: openai.OpenAI, base: str, key: str) -> None:
    """A Chatterbox Turbo voice (tools/chatterbox's synthetic graphs, installed by test-server-e2e.sh)
    cloned from an uploaded clip (no transcript), spoken: 24 kHz, whole tokens, streamed PCM alike."""
    name = f"e2e-box-{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp:
        clip = os.path.join(tmp, "clip.wav")
        with open(clip, "wb") as f:
            f.write(client.audio.speech.create(model="tts-1", voice=PIPER, input=ASR_TEXT + " " + TEXT, response_format="wav").read())
        out = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {key}",
                              "-F", f"name={name}", "-F", f"file=@{clip}", "-F", "model=chatterbox",
                              "-F", "consent=e2e synthetic voice", f"{base}/audio/voices"],
                             capture_output=True, text=True, timeout=600)
        body, _, code = out.stdout.rpartition("\n")
        answer = json.loads(body or "{}")
        check(code == "201" and answer.get("id") == name, f"chatterbox: POST /audio/voices clones from a clip ({code})")
    speak_stream_delete(client, base, key, name, "chatterbox", unit=960, least=3 * 960)


def speak_stream_delete(client: openai.OpenAI, base: str, key: str, name: str, label: str, unit: int, least: int) -> None:
    """Speaks with library voice NAME of a seed family: 24 kHz, whole units (samples a token or code),
    more than LEAST samples; streamed PCM of the same length; then deletes the voice."""
    data = client.audio.speech.create(model="tts-1", voice=name, input="Good morning to you all.", response_format="wav").read()
    samples, rate = decode(data)
    check(rate == 24000 and len(samples) > least and len(samples) % unit == 0,
          f"{label}: 24 kHz ({rate}), whole units ({len(samples)} samples, {unit} a unit)")
    with client.audio.speech.with_streaming_response.create(model="tts-1", voice=name, input="Good morning to you all.",
                                                            response_format="pcm") as response:
        streamed = b"".join(response.iter_bytes())
    check(len(streamed) == 2 * len(samples), f"{label}: streamed PCM has the same length ({len(streamed) // 2} samples)")
    request = urllib.request.Request(f"{base}/audio/voices/{name}", method="DELETE", headers={"Authorization": f"Bearer {key}"})
    check(json.loads(urllib.request.urlopen(request, timeout=30).read()).get("deleted") is True, f"{label}: the voice is deleted")


def check_neutts(client: openai.OpenAI, base: str, key: str) -> None:
    """A NeuTTS voice (tools/neutts's synthetic graphs, installed by test-server-e2e.sh) given by its
    reference's codes and transcript (`codes` instead of `file`), spoken: 24 kHz, whole codes (480
    samples each), streamed PCM alike; codes without a transcript are refused."""
    name = f"e2e-neu-{os.getpid()}"
    voice = os.path.join(ROOT, "Tests", "Fixtures", "generated", "neutts", "voice")
    with open(os.path.join(voice, "ref.txt"), encoding="utf-8") as f:
        transcript = f.read()

    def post(*fields: str) -> tuple[str, dict]:
        form = [arg for field in fields for arg in ("-F", field)]
        out = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {key}", *form, f"{base}/audio/voices"],
                             capture_output=True, text=True, timeout=120)
        body, _, code = out.stdout.rpartition("\n")
        return code, json.loads(body or "{}")

    code, answer = post(f"name={name}", f"codes=@{os.path.join(voice, 'ref_codes.npy')}", "model=neutts-nano")
    check(code == "400" and "transcript" in json.dumps(answer), f"neutts: codes without a transcript are refused ({code})")
    code, answer = post(f"name={name}", f"codes=@{os.path.join(voice, 'ref_codes.npy')}", "model=neutts-nano",
                        f"transcript={transcript}")
    check(code == "201" and answer.get("id") == name and answer.get("model") == "neutts-nano",
          f"neutts: POST /audio/voices adds a voice from its codes ({code})")
    speak_stream_delete(client, base, key, name, "neutts", unit=480, least=50 * 480)


def check_sensevoice(client: openai.OpenAI) -> None:
    """model=sensevoice-small (tools/sensevoice's synthetic export, installed beside the models): sherpa-onnx's text,
    and verbose_json with the segment's words and SenseVoice's tags (language, emotion, event) in `tags`."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/Fixtures/generated/sensevoice")
    goldens = json.load(open(os.path.join(root, "goldens/decode.json")))["cases"]
    golden = next(c for c in goldens if c["clip"] == "short44k.wav" and c["model"] == "model.onnx" and c["language"] == "auto")
    clip = os.path.join(root, "clips/short44k.wav")
    plain = client.audio.transcriptions.create(model="sensevoice-small", file=open(clip, "rb"))
    check(plain.text == golden["text"], f"sensevoice-small: sherpa-onnx's text ({plain.text[:40]!r})")
    verbose = client.audio.transcriptions.create(model="sensevoice-small", file=open(clip, "rb"), response_format="verbose_json",
                                                 timestamp_granularities=["segment", "word"])
    segment = verbose.segments[0].model_dump() if verbose.segments else {}
    tags = {"language": golden["lang"][2:-2], "emotion": golden["emotion"][2:-2], "event": golden["event"][2:-2]}
    check(verbose.text == golden["text"] and segment.get("tokens") == golden["ids"] and segment.get("tags") == tags
          and len(verbose.words or []) > 0,
          f"sensevoice-small verbose_json: tokens, tags {segment.get('tags')} and words")


def check_parakeet(client: openai.OpenAI) -> None:
    """model=parakeet-tdt-0.6b-v3 (tools/parakeet's synthetic export, installed beside the models): sherpa-onnx's text,
    and verbose_json with the segment's tokens and words timed from the tokens' frames and durations."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/Fixtures/generated/parakeet")
    goldens = json.load(open(os.path.join(root, "goldens/decode.json")))["cases"]
    golden = next(c for c in goldens if c["clip"] == "short44k.wav" and c["model"] == "f32")
    clip = os.path.join(root, "clips/short44k.wav")
    plain = client.audio.transcriptions.create(model="parakeet-tdt-0.6b-v3", file=open(clip, "rb"))
    check(plain.text == golden["text"], f"parakeet-tdt-0.6b-v3: sherpa-onnx's text ({plain.text[:40]!r})")
    verbose = client.audio.transcriptions.create(model="parakeet-tdt-0.6b-v3", file=open(clip, "rb"),
                                                 response_format="verbose_json", timestamp_granularities=["segment", "word"])
    segment = verbose.segments[0].model_dump() if verbose.segments else {}
    starts = {round(t, 2) for t in golden["timestamps"]}
    words = verbose.words or []
    check(verbose.text == golden["text"] and segment.get("tokens") == golden["ids"] and len(words) > 0
          and all(round(w.start, 2) in starts for w in words),
          f"parakeet-tdt-0.6b-v3 verbose_json: tokens and {len(words)} words at sherpa-onnx's token times")


def check_whisper_large(client: openai.OpenAI) -> None:
    """model=whisper-large-v3-turbo and whisper-large-v3 (tools/whisper/random_large.py's miniatures, converted, installed
    beside the models): verbose_json with segments holds faster-whisper's tokens and text for the same clip (beam 5 with
    timestamps, the route's decoding; temperature 0 stays at 0 on these), and the segments are timed in order."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/Fixtures/generated/whisper/large")
    index = json.load(open(os.path.join(root, "index.json")))
    for model in ("whisper-large-v3-turbo", "whisper-large-v3"):
        golden = index["models"][model]["clips"]["de_wetter"]["beam5_timestamps"]
        verbose = client.audio.transcriptions.create(model=model, file=open(os.path.join(root, "de_wetter.wav"), "rb"),
                                                     language="de", temperature=0, response_format="verbose_json")
        segments = [s.model_dump() for s in verbose.segments or []]
        tokens = [t for s in segments for t in s.get("tokens", [])]
        ordered = all(0 <= s["start"] <= s["end"] for s in segments) \
            and all(a["end"] <= b["start"] + 1e-6 for a, b in zip(segments, segments[1:]))
        check(verbose.text.strip() == golden["text"] and tokens == golden["tokens"] and len(segments) > 0 and ordered
              and verbose.language == "german",
              f"{model} verbose_json: faster-whisper's tokens and text in {len(segments)} timed segments "
              f"({verbose.text[:40]!r})")


def health(base: str, key: str) -> dict:
    with urllib.request.urlopen(base.removesuffix("/v1") + "/health", timeout=5) as response:
        return json.load(response)


def get_status(url: str, key: str | None = None) -> tuple[int, bytes]:
    """GET url (with the key as a Bearer token when given): status and body, errors included."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def check_ready(base: str) -> None:
    """/health/live at once; /health/ready 200 within 60 s (the default voice's model loads and is checked
    once the server listens; 503 with a reason until then)."""
    root = base.removesuffix("/v1")
    check(get_status(root + "/health/live")[0] == 200, "health: /health/live is 200")
    deadline = time.monotonic() + 60
    status, body = get_status(root + "/health/ready")
    while status == 503 and json.loads(body).get("status") == "starting" and time.monotonic() < deadline:
        time.sleep(0.1)
        status, body = get_status(root + "/health/ready")
    check(status == 200 and json.loads(body).get("status") == "ready", f"health: /health/ready is 200 ({status} {body!r})")


def check_metrics(base: str, key: str, speech_requests: int) -> None:
    """/metrics needs the key, and counts the speech requests made so far under their route."""
    root = base.removesuffix("/v1")
    check(get_status(root + "/metrics")[0] == 401, "metrics: /metrics without the key is 401")
    status, body = get_status(root + "/metrics", key)
    text = body.decode()
    check(status == 200, f"metrics: /metrics is {status}")
    series = 'warble_http_requests_total{route="/v1/audio/speech",method="POST",status="200"} '
    counted = [float(line[len(series):]) for line in text.splitlines() if line.startswith(series)]
    check(counted and counted[0] >= speech_requests,
          f"metrics: {counted} speech requests counted under route /v1/audio/speech (at least {speech_requests})")
    for name in ("warble_speech_first_audio_seconds_bucket", "warble_http_request_duration_seconds_bucket",
                 "warble_speech_audio_seconds_total", "warble_queue_depth", "warble_model_load_seconds",
                 "process_resident_memory_bytes"):
        check(any(line.startswith(name) for line in text.splitlines()), f"metrics: {name} is served")


def check_cancelled(name: str, base: str, key: str, before: int) -> None:
    """Within 10 s, /health counts one more cancelled request and no active one."""
    deadline = time.monotonic() + 10
    state = health(base, key)
    while time.monotonic() < deadline and (state["active"] or state["requests"]["cancelled"] == before):
        time.sleep(0.1)
        state = health(base, key)
    check(state["requests"]["cancelled"] == before + 1 and state["active"] == 0,
          f"{name}: work cancelled and slot freed ({state})")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8880/v1")
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--pid", type=int, help="server process: checks graceful shutdown at the end (SIGTERM)")
    args = parser.parse_args()
    base, key = args.base_url, args.api_key
    client = openai.OpenAI(base_url=base, api_key=key, max_retries=0, timeout=120)

    # 0. Liveness, then readiness (the start-up check).
    check_ready(base)

    # 1. Non-streamed create, every response_format.
    wav = client.audio.speech.create(model="tts-1", voice=PIPER, input=TEXT, response_format="wav").content
    check(wav[:4] == b"RIFF" and wav.count(b"RIFF") == 1, "wav: one RIFF header")
    reference = check_audio("create wav", wav, 22050)
    # One sentence: its length is known before the first byte, so the header's sizes are exact (Python's
    # wave module reads them as they are); more than one sentence streams with 0xFFFFFFFF sizes.
    one = client.audio.speech.create(model="tts-1", voice=PIPER, input="Hello from Warble, in a single sentence.",
                                     response_format="wav").content
    frames = wave.open(io.BytesIO(one)).getnframes()
    check(44 + 2 * frames == len(one), f"one-sentence wav: header says {frames} frames, the body holds {(len(one) - 44) // 2}")
    check(wav[40:44] == b"\xff\xff\xff\xff", "two-sentence wav: streamed with 0xFFFFFFFF data size")
    for fmt, rate in (("mp3", 22050), ("flac", 22050), ("opus", 24000)):
        data = client.audio.speech.create(model="tts-1", voice=PIPER, input=TEXT, response_format=fmt).content
        duration = check_audio(f"create {fmt}", data, rate)
        check(abs(duration - reference) < 0.15, f"{fmt}: duration {duration:.2f} s matches wav {reference:.2f} s (±0.15)")
    # AAC (the optional libavcodec encoder): ADTS frames of 1024 samples whose count gives the duration.
    aac = client.audio.speech.create(model="tts-1", voice=PIPER, input=TEXT, response_format="aac")
    data, frames, offset, rate_index = aac.content, 0, 0, None
    while offset + 7 <= len(data) and data[offset] == 0xFF and data[offset + 1] & 0xF0 == 0xF0:
        rate_index = (data[offset + 2] >> 2) & 0xF
        offset += ((data[offset + 3] & 3) << 11) | (data[offset + 4] << 3) | (data[offset + 5] >> 5)
        frames += 1
    check(offset == len(data) and frames > 0, f"aac: {frames} whole ADTS frames, {len(data) - offset} bytes left over")
    check(rate_index == 7, f"aac: 22050 Hz in the ADTS header (index {rate_index})")
    aac_seconds = (frames - 1) * 1024 / 22050
    check(abs(aac_seconds - reference) < 0.1, f"aac: {aac_seconds:.2f} s matches wav {reference:.2f} s (±0.1)")
    pcm = client.audio.speech.create(model="tts-1", voice=PIPER, input=TEXT, response_format="pcm", speed=1.0).content
    duration = check_audio("create pcm", pcm, 24000, pcm=True)
    check(abs(duration - reference) < 0.01, f"pcm: 24 kHz duration {duration:.3f} s matches wav (±0.01)")
    check_metrics(base, key, speech_requests=7)  # wav twice, mp3, flac, opus, aac and pcm
    kokoro = next((v["id"] for v in json.load(urllib.request.urlopen(urllib.request.Request(
        base + "/audio/voices", headers={"Authorization": f"Bearer {key}"})))["data"] if v["sample_rate"] == 24000), None)
    if kokoro:
        data = client.audio.speech.create(model="tts-1", voice=kokoro, input=TEXT, response_format="wav").content
        check_audio(f"create wav ({kokoro})", data, 24000)
        # Kokoro-FastAPI's voice mixing: weighted style tables of two stock voices.
        kokoros = [v["id"] for v in json.load(urllib.request.urlopen(urllib.request.Request(
            base + "/audio/voices", headers={"Authorization": f"Bearer {key}"})))["data"] if v["sample_rate"] == 24000]
        if len(kokoros) >= 2:
            mix = f"{kokoros[0]}(0.7)+{kokoros[1]}(0.3)"
            raw = client.audio.speech.with_raw_response.create(model="tts-1", voice=mix, input=TEXT, response_format="wav")
            check(raw.headers.get("x-warble-voice") == mix, f"voice mix {mix}: spoken by {raw.headers.get('x-warble-voice')}")
            check_audio(f"create wav (mix {mix})", raw.content, 24000)

    # OpenAI's voice and model names, as Open WebUI and Home Assistant send them: each stands for an installed
    # voice of its gender (none of Kokoro's English voices being installed): alloy (female) for a female voice,
    # onyx (male) for the default voice, which is male; the header says which.
    listed = json.load(urllib.request.urlopen(urllib.request.Request(
        base + "/audio/voices", headers={"Authorization": f"Bearer {key}"})))["data"]
    genders = {v["id"]: v.get("gender") for v in listed}
    raw = client.audio.speech.with_raw_response.create(model="gpt-4o-mini-tts", voice="alloy", input=TEXT,
                                                       response_format="wav")
    alloy = raw.headers.get("x-warble-voice")
    female = any(g == "female" for g in genders.values())
    check(genders.get(alloy) == "female" if female else alloy == PIPER, f"voice alloy (female) is spoken by {alloy} ({genders.get(alloy)})")
    check_audio("create wav (voice alloy, model gpt-4o-mini-tts)", raw.content, 24000 if female else 22050)
    raw = client.audio.speech.with_raw_response.create(model="tts-1", voice="onyx", input=TEXT, response_format="wav")
    check(raw.headers.get("x-warble-voice") == PIPER, f"voice onyx (male) is spoken by the default voice ({raw.headers.get('x-warble-voice')})")
    # A stock voice named without its model's prefix, as a mix names it.
    bare = [v.split("-", 1)[1] for v in genders if v.startswith("kokoro-")][:1]
    for name in bare:
        raw = client.audio.speech.with_raw_response.create(model="tts-1", voice=name, input=TEXT, response_format="wav")
        check(raw.headers.get("x-warble-voice") == "kokoro-" + name, f"voice {name} is kokoro-{name} ({raw.headers.get('x-warble-voice')})")

    # 2. The streaming response helper: bytes arrive before synthesis ends.
    started = time.monotonic()
    first_at, pieces = None, []
    with client.audio.speech.with_streaming_response.create(
            model="tts-1", voice=PIPER, input=LONG, response_format="pcm") as response:
        check(response.headers.get("content-type") == "audio/pcm", "streaming: content-type audio/pcm")
        for piece in response.iter_bytes():
            if first_at is None:
                first_at = time.monotonic() - started
            pieces.append(piece)
    total = time.monotonic() - started
    check_audio("streamed pcm (40 sentences)", b"".join(pieces), 24000, pcm=True, min_s=60, max_s=400)
    print(f"     streaming: first bytes after {first_at:.2f} s, all after {total:.2f} s", flush=True)
    check(first_at is not None and first_at < total / 3, "streaming: first bytes well before the end")

    # 3. Errors through the client.
    try:
        client.audio.speech.create(model="tts-1", voice="nobody", input=TEXT)
        check(False, "unknown voice raises NotFoundError")
    except openai.NotFoundError as error:
        check(error.status_code == 404 and "nobody" in str(error), "unknown voice: 404 naming it")
    try:
        client.audio.speech.create(model="tts-1", voice=PIPER, input="<speak>Hi <bad></speak>")
        check(False, "bad SSML raises BadRequestError")
    except openai.BadRequestError as error:
        check("line 1" in str(error), "bad SSML: 400 with line and column")
    try:
        openai.OpenAI(base_url=base, api_key="wrong", max_retries=0).audio.speech.create(
            model="tts-1", voice=PIPER, input=TEXT)
        check(False, "wrong API key raises AuthenticationError")
    except openai.AuthenticationError as error:
        check(error.status_code == 401, "wrong API key: 401")

    # 3b. Hardening: file paths as voices are refused without touching the file or echoing a server path;
    # a known route asked with another method is 405 with Allow.
    for path in ("/etc/shadow", "/root/.bash_history", "./x.onnx", "../models/silero-vad/silero_vad.onnx", "evil.onnx",
                 "~/voice"):
        try:
            client.audio.speech.create(model="tts-1", voice=path, input=TEXT)
            check(False, f"voice {path!r} raises BadRequestError")
        except openai.BadRequestError as error:
            message = str(error)
            check(error.status_code == 400 and "not a file path" in message and os.getcwd() not in message
                  and "/etc" not in message and "/root" not in message,
                  f"voice {path!r}: 400, 'not a file path', no server path in the answer")
    voices = json.load(urllib.request.urlopen(urllib.request.Request(
        base + "/audio/voices", headers={"Authorization": f"Bearer {key}"})))["data"]
    check(not any("/" in v["id"] or v["id"].endswith(".onnx") for v in voices), "no voice by path is listed")
    for method in ("GET", "PUT"):
        request = urllib.request.Request(base + "/audio/speech", method=method, headers={"Authorization": f"Bearer {key}"})
        try:
            urllib.request.urlopen(request, timeout=30)
            check(False, f"{method} /v1/audio/speech: refused")
        except urllib.error.HTTPError as error:
            check(error.code == 405 and error.headers.get("Allow") == "POST",
                  f"{method} /v1/audio/speech: 405 with Allow: POST (got {error.code}, Allow {error.headers.get('Allow')!r})")
    host, port = base.split("//")[1].split("/")[0].rsplit(":", 1)
    for name, head, body in (("Transfer-Encoding: xchunked", b"Transfer-Encoding: xchunked\r\n", b""),
                             ("a chunk size of ffff…", b"Transfer-Encoding: chunked\r\n", b"ffffffffffffffffffff\r\nabc\r\n")):
        with socket.create_connection((host, int(port)), timeout=30) as raw:
            raw.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: e2e\r\nAuthorization: Bearer " + key.encode()
                        + b"\r\nContent-Type: application/json\r\n" + head + b"\r\n" + body)
            status = raw.recv(200).split(b"\r\n")[0].decode(errors="replace")
        check(" 400 " in status, f"{name}: a client error ({status!r})")
    if kokoro:
        for fmt in ("aac", "flac", "wav"):
            data = client.audio.speech.create(model="tts-1", voice=kokoro, input="Faster, please.", response_format=fmt,
                                              speed=1.2).content
            check(len(data) > 1000, f"{kokoro} at speed 1.2 in {fmt}: {len(data)} bytes")

    # 4. curl: a WAV file, and the SSE extension with marks and word timings.
    body = json.dumps({"model": "tts-1", "voice": PIPER, "input": TEXT, "response_format": "wav"})
    out = subprocess.run(["curl", "-sS", "--fail-with-body", "-H", f"Authorization: Bearer {key}",
                          "-H", "Content-Type: application/json", "-d", body, base + "/audio/speech"],
                         capture_output=True, timeout=120)
    check(out.returncode == 0, "curl wav: success")
    check_audio("curl wav", out.stdout, 22050)
    ssml = '<speak>Before the mark <mark name="here"/> and after it. Second sentence.</speak>'
    body = json.dumps({"model": "tts-1", "voice": PIPER, "input": ssml, "response_format": "wav", "stream_format": "sse"})
    out = subprocess.run(["curl", "-sSN", "--fail-with-body", "-H", f"Authorization: Bearer {key}",
                          "-H", "Content-Type: application/json", "-d", body, base + "/audio/speech"],
                         capture_output=True, timeout=120)
    events = [json.loads(line[6:]) for line in out.stdout.decode().split("\n") if line.startswith("data: ")]
    kinds = [e["type"] for e in events]
    check("speech.mark" in kinds and any(e.get("name") == "here" for e in events), "sse: the SSML mark arrives")
    check(kinds.count("speech.sentence") >= 2, f"sse: sentence events ({kinds.count('speech.sentence')})")
    words = [e for e in events if e["type"] == "speech.word"]
    check(len(words) >= 8 and words[0]["text"] == "Before", f"sse: word boundaries ({len(words)}, first {words[:1]})")
    check(all(a["time"] <= b["time"] for a, b in zip(words, words[1:])), "sse: word times increase")
    audio = b"".join(__import__("base64").b64decode(e["audio"]) for e in events if e["type"] == "speech.audio.delta")
    check_audio("sse audio", audio, 22050, min_s=1.5)
    check(kinds[-1] == "speech.audio.done", "sse: ends with speech.audio.done")

    # 5. Speech recognition: transcriptions in every format, a translation, curl -F, errors.
    check_recognition(client, base, key)

    # 5b. The history (the server runs with --history): requests kept, listed, shown, exported, deleted.
    check_history(client, base, key)

    # 5c. SenseVoice through the same route (model= picks it).
    check_sensevoice(client)
    # 5d. Parakeet TDT through the same route.
    check_parakeet(client)
    # 5e. Whisper large-v3 and its turbo (128 mel bins) through the same route.
    check_whisper_large(client)

    # 6. A client that goes away cancels its synthesis and frees the slot.
    before = health(base, key)["requests"]["cancelled"]
    host, port = base.split("//")[1].split("/")[0].rsplit(":", 1)
    payload = json.dumps({"model": "tts-1", "voice": PIPER, "input": LONG, "response_format": "wav"}).encode()
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     + f"Authorization: Bearer {key}\r\nContent-Length: {len(payload)}\r\n\r\n".encode() + payload)
        received = sock.recv(4096)
        check(received.startswith(b"HTTP/1.1 200"), "disconnect: the response started")
    check_cancelled("disconnect", base, key, before)

    # 6b. The voice library over HTTP: a Kokoro voice found from an uploaded clip (curl -F, a short
    #     search), listed at once, spoken through OpenAI's client, then deleted; a clip with no speech is 400.
    check_voice_library(client, base, key)
    # 6c. A CosyVoice 3 voice (synthetic graphs) cloned, spoken, streamed, with seed and instructions.
    check_cosyvoice3(client, base, key)
    # 6d. A Chatterbox Turbo voice (synthetic graphs) cloned from a clip, spoken and streamed.
    check_chatterbox(client, base, key)
    check_neutts(client, base, key)

    # 7. Graceful shutdown: SIGTERM once a streamed request's first audio has arrived; new connections are
    #    refused while it drains, and the stream finishes whole.
    if args.pid:
        result, streaming = {}, threading.Event()

        def speak():
            pieces = []
            with client.audio.speech.with_streaming_response.create(
                    model="tts-1", voice=PIPER, input=" ".join([TEXT] * 4), response_format="wav") as response:
                for piece in response.iter_bytes():
                    pieces.append(piece)
                    streaming.set()
            result["data"] = b"".join(pieces)

        thread = threading.Thread(target=speak)
        thread.start()
        check(streaming.wait(60), "shutdown: the stream started")
        os.kill(args.pid, signal.SIGTERM)
        refused, deadline = False, time.monotonic() + 5
        while not refused and time.monotonic() < deadline:
            try:
                socket.create_connection((host, int(port)), timeout=1).close()
                time.sleep(0.02)
            except OSError:
                refused = True
        check(refused, "shutdown: new connections are refused once SIGTERM arrived")
        thread.join(60)
        check("data" in result, "shutdown: the stream in flight completed")
        if "data" in result:
            check_audio("shutdown wav (streamed)", result["data"], 22050, min_s=8, max_s=40)

    if failures:
        print("\nfailed: " + "; ".join(failures))
    # The last line, read by scripts/test-server-e2e.sh, which adds its own checks to the counts.
    print(f"e2e.py: {passed} passed, {len(failures)} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
