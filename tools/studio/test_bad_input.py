"""Bad input through the page: an empty text, 10 MB of text, an unsupported upload each give a clear message
(and an error the server gives is shown as it said it)."""
from __future__ import annotations

from tools.studio.harness import Studio, main


def run(studio: Studio) -> None:
    page = studio.page()
    page.wait_for_function("() => document.querySelector('#speak-voice')?.options.length > 1")
    page.fill("#speak-text", "   ")
    page.click("#speak-play")
    message = page.inner_text("#speak-message")
    studio.check("Nothing to say" in message and page.eval_on_selector("#status", "s => s.dataset.kind") == "error",
                 f"bad input: empty text: {message}")
    page.evaluate("() => document.querySelector('#speak-text').value = 'a'.repeat(10 * 1024 * 1024)")
    page.click("#speak-play")
    message = page.inner_text("#speak-message")
    studio.check("10,485,760 characters" in message and "4,096" in message, f"bad input: 10 MB of text: {message[:120]}")
    page.fill("#speak-text", "<speak><prosody rate='fast'>Unclosed</speak>")
    page.click("#speak-play")
    page.wait_for_function("() => document.querySelector('#speak-message')?.textContent.length > 0")
    message = page.inner_text("#speak-message")
    studio.check("Could not speak" in message and ("line" in message or "SSML" in message),
                 f"bad input: bad SSML shows the server's message: {message[:160]}")
    page.click("#tab-voices")
    page.wait_for_selector("#voices-file")
    page.set_input_files("#voices-file", files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not audio at all"}])
    page.wait_for_function("() => document.querySelector('#voices-message')?.textContent.includes('notes.txt')")
    message = page.inner_text("#voices-message")
    studio.check("not audio" in message, f"bad input: an unsupported upload: {message}")
    studio.shot(page, "bad-input")
    page.context.close()


if __name__ == "__main__":
    main(run)
