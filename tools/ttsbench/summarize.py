"""Prints the table of scripts/bench-tts.sh from the JSON it collected in DIR.

    python tools/ttsbench/summarize.py DIR

DIR/<voice>-swift.jsonl and <voice>-python.jsonl hold one `warble bench tts` / bench_reference.py
report per round (medians are taken); DIR/<voice>-<impl>-mem-<text>.json and .time hold the memory
runs (the report, and /usr/bin/time -v's output for the whole-process peak RSS); DIR/whole.jsonl the
whole-process runs (`warble say -o FILE` against the reference writing the same audio, one line a run).
"""

import json
import re
import statistics
import sys
from pathlib import Path


def rounds(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def med(reports: list[dict], key: str):
    values = [r[key] for r in reports if r.get(key) is not None]
    return statistics.median(values) if values else None


def max_rss_kib(path: Path):
    if not path.exists():
        return None
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", path.read_text())
    return int(m.group(1)) if m else None


def fmt(x, unit=""):
    if x is None:
        return "-"
    if unit == "MiB":
        return f"{x / 1024:.0f} MiB"
    return f"{x:.3f}{unit}"


def verdict(value, limit):
    if value is None:
        return "n/a"
    return "ok" if value <= limit else "MISSED"


def main() -> None:
    out = Path(sys.argv[1])
    voices = sorted({p.name.split("-swift")[0] for p in out.glob("*-swift.jsonl")} |
                    {p.name.split("-swift-mem")[0] for p in out.glob("*-swift-mem-*.json")})
    for voice in voices:
        s, p = rounds(out / f"{voice}-swift.jsonl"), rounds(out / f"{voice}-python.jsonl")
        print(f"\n## {voice}  (threads {s[0]['threads'] if s else '?'}; medians of {len(s)} Swift / {len(p)} Python rounds)")
        print(f"{'measure':44s} {'Swift':>12s} {'Python':>12s} {'ratio':>8s}  target")
        rows = []
        for key, label in [("load_s", "model load (s)"), ("warmup_s", "first synthesis 'Warm up.' (s)"),
                           ("synth_s", "synthesis wall time, text set (s)"),
                           ("synth_cpu_s", "synthesis CPU time, text set (s)"), ("rtf", "real-time factor"),
                           ("run_s", "time inside ORT Run (s)"), ("outside_run_s", "time outside Run (s)"),
                           ("ttfa_paragraph_s", "time to first audio, 5-sentence paragraph (s)"),
                           ("first_sentence_s", "first sentence alone, whole (s)")]:
            a, b = med(s, key), med(p, key)
            ratio = a / b if a is not None and b else None
            target = ""
            if key == "synth_s":
                target = f"<= 0.9  {verdict(ratio, 0.9)}"
            rows.append((label, fmt(a), fmt(b), fmt(ratio), target))
        for key, label in [("peak_rss_kib", "peak RSS (VmHWM), text set")]:
            a, b = med(s, key), med(p, key)
            rows.append((label, fmt(a, "MiB"), fmt(b, "MiB"), fmt(a / b if a and b else None), ""))
        for row in rows:
            print(f"{row[0]:44s} {row[1]:>12s} {row[2]:>12s} {row[3]:>8s}  {row[4]}")
        print()
        outside = [r["outside_run_s"] / r["synth_s"] for r in s if r.get("synth_s")]
        o = statistics.median(outside) if outside else None
        print(f"Swift time outside Run / synthesis time        {fmt(o):>8s}  target < 0.05  {verdict(o, 0.05 - 1e-12)}")
        if s and s[0].get("phonemize_s") is not None:
            print(f"  of which espeak-ng phonemization / synthesis {fmt(med(s, 'phonemize_s') / med(s, 'synth_s')):>8s}")
        po = [r["outside_run_s"] / r["synth_s"] for r in p if r.get("synth_s")]
        if po:
            print(f"Python time outside Run / synthesis time       {fmt(statistics.median(po)):>8s}")
        t = [r["ttfa_paragraph_s"] / r["first_sentence_s"] for r in s if r.get("first_sentence_s")]
        tt = statistics.median(t) if t else None
        print(f"Swift TTFA(paragraph) / first sentence alone   {fmt(tt):>8s}  target <= 1.2  {verdict(tt, 1.2)}")
        pt = [r["ttfa_paragraph_s"] / r["first_sentence_s"] for r in p if r.get("first_sentence_s")]
        if pt:
            print(f"Python TTFA(paragraph) / first sentence alone  {fmt(statistics.median(pt)):>8s}")
        for impl in ["swift", "python"]:
            one = out / f"{voice}-{impl}-mem-one-sentence"
            longs = sorted(out.glob(f"{voice}-{impl}-mem-long-*.json"))
            if not (one.with_suffix(".json").exists() and longs):
                continue
            long = longs[-1].with_suffix("")
            r1, r2 = rounds(one.with_suffix(".json")), rounds(long.with_suffix(".json"))
            if not r1 or not r2:
                print(f"{impl}: memory run incomplete ({one}, {long})")
                continue
            h1, h2 = r1[0].get("peak_rss_kib"), r2[0].get("peak_rss_kib")
            m1, m2 = max_rss_kib(one.with_suffix(".time")), max_rss_kib(long.with_suffix(".time"))
            words = r2[0].get("words")
            print(f"{impl:6s} peak memory, {words}-word text vs one sentence: VmHWM {fmt(h2, 'MiB')} / {fmt(h1, 'MiB')} = "
                  f"{fmt(h2 / h1 if h1 and h2 else None)}; whole process (time -v) {fmt(m2, 'MiB')} / {fmt(m1, 'MiB')} = "
                  f"{fmt(m2 / m1 if m1 and m2 else None)}" + ("  target <= 1.2  " + verdict(m2 / m1 if m1 and m2 else None, 1.2)
                                                              if impl == "swift" else "")
                  + f"  (synthesis {fmt(r2[0].get('synth_s'))} s for {fmt(r2[0].get('audio_s'))} s of audio)")
    whole_process(out)


# Whole-process targets of issue #44 (warble's wall time / the reference's, same text, same threads).
WHOLE_TARGETS = {"piper": 0.6, "kokoro": 0.65}


def whole_process(out: Path) -> None:
    runs = rounds(out / "whole.jsonl")
    if not runs:
        return
    print("\n## whole process: the text set as one text into a file (warble say -o FILE / the reference's streaming path)")
    print(f"{'voice':8s} {'threads':>7s} {'Swift (s)':>10s} {'Python (s)':>11s} {'ratio':>7s}  rounds  target")
    for voice, threads in sorted({(r["voice"], r["threads"]) for r in runs}):
        mine = [r for r in runs if r["voice"] == voice and r["threads"] == threads]
        a = med([r for r in mine if r["impl"] == "swift"], "wall_s")
        b = med([r for r in mine if r["impl"] == "python"], "wall_s")
        ratio = a / b if a is not None and b else None
        limit = WHOLE_TARGETS.get(voice)
        target = f"<= {limit}  {verdict(ratio, limit)}" if limit else ""
        print(f"{voice:8s} {threads:>7d} {fmt(a):>10s} {fmt(b):>11s} {fmt(ratio):>7s}  {len(mine) // 2:>6d}  {target}")


if __name__ == "__main__":
    main()
