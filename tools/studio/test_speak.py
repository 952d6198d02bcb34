"""Speak: the page asks for the key, lists the voices grouped by model and language, streams a sentence into
the <audio> element through MediaSource (first audio in the page before the synthesis ended), highlights the
word being spoken, downloads the same audio, stops."""
from __future__ import annotations

import tempfile
from pathlib import Path

from tools.studio.harness import Studio, main

TEXT = ("Warble speaks on this machine. Every word you hear is made right here, a sentence at a time. "
        "The page shows each word while it is spoken. Then it stops.")


def run(studio: Studio) -> None:
    page = studio.page(with_key=False)
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.locator("#key-dialog").wait_for(state="visible")
    studio.check(True, "speak: without a key the page asks for it (the API answered 401)")
    page.fill("#key-input", studio.key)
    page.click("#key-save")
    page.wait_for_function("() => document.querySelector('#speak-voice')?.options.length > 1")
    groups = page.eval_on_selector_all("#speak-voice optgroup", "gs => gs.map(g => g.label)")
    voices = studio.api("GET", "/v1/audio/voices")["data"]
    studio.check(len(groups) == len({(v["model"], v["language"]) for v in voices}) and all(" · " in g for g in groups),
                 f"speak: voices grouped by model and language ({groups})")
    piper = next(v["id"] for v in voices if "joe" in v["id"])
    page.select_option("#speak-voice", piper)
    page.fill("#speak-text", TEXT)
    page.select_option("#speak-format", "mp3")
    page.click("#speak-play")
    page.wait_for_function("() => document.querySelector('#speak-timing')?.dataset.firstAudioMs !== undefined")
    src = page.eval_on_selector("#speak-audio", "a => a.src")
    studio.check(src.startswith("blob:") and page.evaluate("() => MediaSource.isTypeSupported('audio/mpeg')"),
                 "speak: the <audio> element plays a MediaSource stream (audio/mpeg)")
    page.wait_for_function("() => Number(document.querySelector('#speak-words')?.dataset.changes || 0) >= 3 "
                           "&& !document.querySelector('#speak-audio').paused")
    studio.check(True, "speak: the highlighted word changed at least 3 times while the audio played")
    page.wait_for_function("() => document.querySelector('#speak-timing')?.dataset.doneMs !== undefined")
    first = float(page.eval_on_selector("#speak-timing", "t => t.dataset.firstAudioMs"))
    done = float(page.eval_on_selector("#speak-timing", "t => t.dataset.doneMs"))
    studio.check(first < done, f"speak: first audio in the page after {first:.0f} ms, before the synthesis ended ({done:.0f} ms)")
    playing = page.eval_on_selector("#speak-audio", "a => ({t: a.currentTime, paused: a.paused})")
    highlighted = page.locator("#speak-words span.current").count()
    studio.check(playing["t"] > 0 and highlighted == 1, f"speak: playing at {playing['t']:.2f} s, one word highlighted")
    studio.shot(page, "speak")
    with page.expect_download() as info:
        page.click("#speak-download")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, info.value.suggested_filename)
        info.value.save_as(path)
        data = path.read_bytes()
        studio.check(path.suffix == ".mp3" and len(data) > 5000 and (data[:3] == b"ID3" or data[0] == 0xFF),
                     f"speak: Download saves the streamed MP3 ({len(data)} bytes, {path.name})")
    page.click("#speak-stop")
    studio.check(page.eval_on_selector("#speak-audio", "a => a.paused") and "Stopped" in studio.status(page),
                 "speak: Stop pauses the audio and says so")
    studio.check(not any(studio.key in url for url in urls), f"speak: the key is in no URL ({len(urls)} requests)")
    page.context.close()


if __name__ == "__main__":
    main(run)
