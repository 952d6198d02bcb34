"""Benchmarks: with no report the screen says how to make one (GET /v1/bench/report answers 404); a small report.json
in the server's default report folder ($WARBLE_HOME/bench, as `warble bench report` writes it) is drawn as the
report's bar charts (inline SVG, a caption each, the figures as a table); screenshot of the screen."""
from __future__ import annotations

import json
from pathlib import Path

from tools.studio.harness import Studio, main

# A report as `warble bench report` writes report.json (BenchReport's keys): two voices, one with a reference row.
REPORT = {
    "machine": {"build": "release", "cores": 2, "cpu": "Test CPU", "date": "2026-11-29", "onnxRuntime": "1.22.0"},
    "runs": 3,
    "rows": [
        {"kind": "tts", "model": "voice-a", "engine": "warble", "realTimeFactor": 24.5, "wordsPerSecond": 61.0,
         "firstAudioSeconds": 0.085, "peakMemoryMiB": 92.0, "referenceRatio": 1.4},
        {"kind": "tts", "model": "voice-a", "engine": "reference-tts", "realTimeFactor": 17.5, "wordsPerSecond": 43.6,
         "firstAudioSeconds": 0.31, "peakMemoryMiB": 140.0},
        {"kind": "asr", "model": "recogniser-b", "engine": "warble", "realTimeFactor": 8.2, "wordsPerSecond": 22.0,
         "peakMemoryMiB": 180.0, "wordErrorRate": 0.04},
    ],
    "skipped": ["translation: no translation model installed"],
}


def run(studio: Studio) -> None:
    if not studio.home:
        studio.check(False, "bench: needs a server the harness started (its WARBLE_HOME holds the report folder)")
        return
    folder = Path(studio.home, "bench")
    report = folder / "report.json"
    report.unlink(missing_ok=True)
    page = studio.page(screen="bench")
    page.wait_for_function("() => document.querySelector('#screen-bench')?.dataset.loaded === '0'")
    message = page.locator("#bench-unavailable").inner_text()
    studio.check("warble bench report -o" in message and str(folder) in message,
                 f"bench: no report: the screen says how to make one ({message[:90]!r}…)")

    folder.mkdir(parents=True, exist_ok=True)
    report.write_text(json.dumps(REPORT, indent=2))
    page.click("#bench-refresh")
    page.wait_for_function("() => document.querySelector('#screen-bench')?.dataset.loaded === '3'")
    charts = page.eval_on_selector_all("figure.bench-chart", """fs => fs.map(f => ({
        id: f.id, caption: f.querySelector('figcaption').textContent,
        bars: f.querySelectorAll('svg rect').length, widths: [...f.querySelectorAll('svg rect')].map(r => Number(r.getAttribute('width'))),
        rows: f.querySelectorAll('table tbody tr').length, tableCaption: f.querySelector('table caption')?.textContent }))""")
    ids = [c["id"] for c in charts]
    studio.check(ids == ["bench-chart-rtf", "bench-chart-first-audio", "bench-chart-memory"],
                 f"bench: the report's three charts are drawn ({ids})")
    by_id = {c["id"]: c for c in charts}
    rtf = by_id.get("bench-chart-rtf", {})
    studio.check(rtf.get("bars") == 3 and rtf.get("rows") == 3 and rtf.get("widths", [0])[0] == max(rtf.get("widths", [0])),
                 f"bench: real-time factor: 3 bars, the largest figure the longest bar, a table of the same 3 rows ({rtf})")
    first = by_id.get("bench-chart-first-audio", {})
    studio.check(first.get("bars") == 2 and "Time to first audio" in first.get("caption", "") and first.get("tableCaption") == first.get("caption"),
                 f"bench: time to first audio: the 2 TTS rows, captioned ({first.get('caption')!r})")
    table = page.locator("#bench-chart-first-audio table").text_content()
    studio.check("85.0" in table and "310" in table, "bench: the table gives the figures (85.0 and 310 ms)")
    source = page.locator("#bench-source").inner_text()
    studio.check("Test CPU" in source and "median of 3 runs" in source and str(folder) in source,
                 f"bench: the machine and the report's folder are named ({source[:80]!r}…)")
    studio.check("no translation model installed" in page.locator("#bench-skipped").inner_text(), "bench: what was not measured is listed")
    hidden = page.eval_on_selector_all("figure.bench-chart svg", "ss => ss.every(s => s.getAttribute('aria-hidden') === 'true')")
    studio.check(hidden, "bench: the SVG is hidden from screen readers, which read the caption and the table")
    studio.shot(page, "bench")
    page.context.close()


if __name__ == "__main__":
    main(run)
