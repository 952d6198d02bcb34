"""Live: the fake microphone plays a spoken sentence (the fixtures' en_fox.wav, "The quick brown fox jumps over
the lazy dog.", looped); a greyed partial line shows the speech in progress; Stop ends the input, the speech heard
settles into the final caption and its Portuguese translation (the Marian EN→PT test model the harness installs)
appears under it and is spoken; the session is then gone from the server; a session for a language pair without a model is
refused with the server's message."""
from __future__ import annotations

import http.client
import json
import time
from urllib.parse import urlparse

from tools.studio.harness import Studio, main


def run(studio: Studio) -> None:
    page = studio.page(screen="live")
    page.wait_for_function("() => document.querySelectorAll('#live-model option').length > 0")
    models = page.eval_on_selector_all("#live-model option", "os => os.map(o => o.value)")
    studio.check(bool(models), f"live: the recognition models are offered: {', '.join(models)}")
    page.select_option("#live-target", "pt")
    page.check("#live-speak")
    began = time.monotonic()
    page.click("#live-start")
    # While the sentence plays, the speech in progress shows as a greyed partial line.
    page.wait_for_function("() => (document.querySelector('#live-partial')?.dataset.text || '').toLowerCase().includes('over') "
                           "|| document.querySelector('#live-message').className.includes('error')", timeout=60_000)
    heard = page.eval_on_selector("#live-partial", "p => p.dataset.text || ''")
    studio.check("quick" in heard.lower(), f"live: a partial line while the fake microphone plays "
                 f"({time.monotonic() - began:.1f} s): {heard!r}; message: {page.inner_text('#live-message')!r}")
    # Stop ends the input: what was being said settles into a final line, translated, then the session ends.
    page.click("#live-stop")
    page.wait_for_function("() => document.querySelector('#screen-live').dataset.done !== undefined "
                           "|| document.querySelector('#live-message').className.includes('error')", timeout=60_000)
    caption = page.inner_text("#live-captions .live-final .live-text") if page.query_selector(".live-final") else ""
    translation = page.inner_text("#live-captions .live-translation") if page.query_selector(".live-translation") else ""
    studio.check("quick" in caption.lower() and page.inner_text("#live-partial") == "",
                 f"live: the partial settles into the final caption ({time.monotonic() - began:.1f} s): {caption!r}")
    studio.check("rápid" in translation.lower() or "raposa" in translation.lower(), f"live: its Portuguese translation appears under it: {translation!r}")
    studio.check(page.get_attribute("#live-captions", "aria-live") == "polite", "live: the captions are an aria-live region")
    studio.shot(page, "live")
    studio.check(page.is_enabled("#live-start") and not page.is_enabled("#live-stop"),
                 f"live: Stop ended the session: {page.inner_text('#live-message')!r}")
    page.wait_for_function("() => (document.querySelector('#live-audio').src || '').startsWith('blob:') "
                           "|| document.querySelector('#live-message').className.includes('error')", timeout=60_000)
    studio.check(page.eval_on_selector("#live-audio", "a => a.src.startsWith('blob:') && !a.hidden"),
                 f"live: \"Speak the translation\" speaks it (POST /v1/audio/speech into the page's audio element): "
                 f"{page.inner_text('#live-message')!r}")
    session = page.eval_on_selector("#screen-live", "s => s.dataset.session")
    offer = studio.api("GET", "/v1/audio/live")
    studio.check(offer.get("sessions") == 0, f"live: session {session} is gone from the server once ended: {offer.get('sessions')} open")
    page.select_option("#live-target", "ja")
    page.click("#live-start")
    page.wait_for_function("() => document.querySelector('#live-message').className.includes('error')")
    message = page.inner_text("#live-message")
    studio.check("en→ja" in message, f"live: a language without a translation model is refused clearly: {message!r}")
    page.context.close()
    hang_up(studio)


def hang_up(studio: Studio) -> None:
    """A client that reads a session's events and hangs up ends the session on the server."""
    url = urlparse(studio.url)
    headers = {"Authorization": f"Bearer {studio.key}", "Content-Type": "application/json"}
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    connection.request("POST", "/v1/audio/live", body=json.dumps({}), headers=headers)
    session = json.loads(connection.getresponse().read())["id"]
    connection.request("GET", f"/v1/audio/live/{session}/events", headers=headers)
    answer = connection.getresponse()
    opened = studio.api("GET", "/v1/audio/live")["sessions"]
    answer.close()
    connection.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and studio.api("GET", "/v1/audio/live")["sessions"] != 0:
        time.sleep(0.05)
    left = studio.api("GET", "/v1/audio/live")["sessions"]
    studio.check(opened == 1 and left == 0 and answer.status == 200,
                 f"live: a reader that hangs up ends its session ({opened} open while reading, {left} after)")


if __name__ == "__main__":
    main(run)
