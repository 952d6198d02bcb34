"""Voices: record a clip from the (fake) microphone, see its length and loudness, clone it with consent
(Kokoro's search, a small budget), find the new voice in Speak and speak with it, play a sample."""
from __future__ import annotations

import time

from tools.studio.harness import Studio, main

NAME = "studio-clone"


def run(studio: Studio) -> None:
    page = studio.page(screen="voices")
    page.wait_for_function("() => Number(document.querySelector('#screen-voices')?.dataset.models || 0) > 0")
    page.click("#voices-record")
    page.wait_for_function("() => Number(document.querySelector('#voices-clip-info')?.dataset.recordingSeconds || 0) >= 6")
    page.click("#voices-record")
    page.wait_for_function("() => document.querySelector('#voices-clip-info')?.dataset.seconds !== undefined")
    info = page.inner_text("#voices-clip-info")
    seconds = float(page.eval_on_selector("#voices-clip-info", "i => i.dataset.seconds"))
    studio.check(seconds >= 5.5 and "dBFS" in info and "recording.wav" in info,
                 f"voices: recorded from the fake microphone: {info}")
    models = page.eval_on_selector_all("#voices-models option", "os => os.map(o => o.value)")
    searching = studio.clone_model or next(m for m in models if m.startswith("kokoro"))
    page.fill("#voices-name", NAME)
    page.fill("#voices-model", searching)
    page.fill("#voices-budget", "3")
    page.check("#voices-keep-stock")
    page.click("#voices-clone")
    studio.check("consent" in page.inner_text("#voices-message"), "voices: cloning without the consent box ticked is refused")
    page.check("#voices-consent")
    began = time.monotonic()
    page.click("#voices-clone")
    page.wait_for_function("() => document.querySelector('#screen-voices')?.dataset.cloned "
                           "|| document.querySelector('#voices-message').className.includes('error')", timeout=180_000)
    message = page.inner_text("#voices-message")
    cloned = page.eval_on_selector("#screen-voices", "s => s.dataset.cloned || ''")
    studio.check(cloned == NAME, f"voices: cloned with {searching}, budget 3 s, in {time.monotonic() - began:.1f} s: {message}")
    events = int(page.eval_on_selector("#screen-voices", "s => s.dataset.progressEvents || '0'"))
    stage = page.inner_text("#voices-stage")
    studio.check(events >= 2 and any(word in stage for word in ("search", "round", "choosing")),
                 f"voices: the clone's progress came as {events} server-sent events (last: {stage!r})")
    studio.check(page.eval_on_selector("#voices-list", "s => s.value") == NAME, "voices: the new voice is listed and chosen")
    page.click("#voices-sample")
    page.wait_for_function("() => document.querySelector('#voices-audio')?.currentTime > 0")
    studio.check(True, "voices: Play a sample speaks with the new voice")
    studio.shot(page, "voices")
    page.click("#tab-speak")
    page.wait_for_function(f"() => [...(document.querySelector('#speak-voice')?.options ?? [])].some(o => o.value === '{NAME}')")
    page.select_option("#speak-voice", NAME)
    page.fill("#speak-text", "This is the cloned voice speaking.")
    page.click("#speak-play")
    page.wait_for_function("() => document.querySelector('#speak-timing')?.dataset.firstAudioMs !== undefined")
    studio.check(page.eval_on_selector("#speak-audio", "a => a.currentTime > 0 || !a.paused"),
                 "voices: Speak plays the new voice")
    page.click("#speak-stop")
    page.context.close()


if __name__ == "__main__":
    main(run)
