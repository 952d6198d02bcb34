"""Python side of scripts/bench-tts.sh: the same measurements as `warble bench tts`, on piper-tts
or kokoro-onnx with the same model files, texts and thread count. Prints one JSON object.

    python tools/ttsbench/bench_reference.py --engine piper|kokoro [--voice jm_kumo] [--threads 1]
        [--texts tools/ttsbench/texts.json | --text-file FILE] [--repeats 3]
"""

import argparse
import json
import statistics
import time
from pathlib import Path

import onnxruntime

from tools.ttsbench import references


def peak_rss_kib() -> int | None:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return None


def rss_kib() -> int | None:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def speak(ref, text: str) -> tuple[float, float]:
    start = time.perf_counter()
    audio = ref.speak(text)
    return time.perf_counter() - start, len(audio) / ref.sample_rate


def time_to_first_audio(ref, text: str) -> float:
    start = time.perf_counter()
    stream = ref.stream(text)
    for chunk in stream:
        if len(chunk):
            elapsed = time.perf_counter() - start
            stream.close()
            return elapsed
    raise SystemExit("the paragraph produced no audio")


def measure(report: dict, ref, texts: list[str]) -> None:
    ref.timed.reset()
    seconds = audio = 0.0
    cpu = time.process_time()
    for text in texts:
        s, a = speak(ref, text)
        seconds += s
        audio += a
    report.update(synth_s=seconds, synth_cpu_s=time.process_time() - cpu, audio_s=audio,
                  rtf=seconds / max(audio, 1e-9), runs=ref.timed.runs,
                  run_s=ref.timed.seconds, outside_run_s=seconds - ref.timed.seconds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True, choices=["piper", "kokoro"])
    parser.add_argument("--voice", default=None)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--texts", default=str(Path(__file__).resolve().parent / "texts.json"))
    parser.add_argument("--text-file")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    report = {"impl": "python", "engine": args.engine, "threads": args.threads, "onnxruntime": onnxruntime.__version__}
    start = time.perf_counter()
    ref = references.load(args.engine, args.threads, args.voice)
    report["load_s"] = time.perf_counter() - start
    report["rss_after_load_kib"] = rss_kib()
    report["warmup_s"] = speak(ref, "Warm up.")[0]

    if args.text_file:
        text = Path(args.text_file).read_text(encoding="utf-8")
        report["words"] = len(text.split())
        measure(report, ref, [text])
    else:
        texts = json.loads(Path(args.texts).read_text(encoding="utf-8"))
        report["words"] = len(" ".join(texts["sentences"]).split())
        measure(report, ref, texts["sentences"])
        paragraph = " ".join(texts["paragraph"])
        first_audio, first_sentence = [], []
        for _ in range(max(1, args.repeats)):
            first_audio.append(time_to_first_audio(ref, paragraph))
            first_sentence.append(speak(ref, texts["paragraph"][0])[0])
        report["ttfa_paragraph_s"] = statistics.median(first_audio)
        report["first_sentence_s"] = statistics.median(first_sentence)
    report["peak_rss_kib"] = peak_rss_kib()
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
