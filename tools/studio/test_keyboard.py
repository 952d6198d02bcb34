"""Keyboard only through Speak (Tab, Enter and Space): focus order, speak, stop; the tab bar's arrow keys;
each remaining screen's screenshot."""
from __future__ import annotations

from tools.studio.harness import Studio, main


def focused(page) -> str:
    return page.evaluate("() => document.activeElement ? document.activeElement.id : ''")


def run(studio: Studio) -> None:
    page = studio.page()
    page.wait_for_function("() => document.querySelector('#speak-voice')?.options.length > 1")
    order = []
    for _ in range(12):
        page.keyboard.press("Tab")
        order.append(focused(page))
        if order[-1] == "speak-play":
            break
    expected = ["tab-speak", "key-change", "speak-text", "speak-voice", "speak-speed", "speak-format", "speak-ssml", "speak-play"]
    studio.check(order == expected, f"keyboard: Tab order {order}")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#speak-timing')?.dataset.firstAudioMs !== undefined")
    studio.check(True, "keyboard: Enter on Speak speaks")
    page.keyboard.press("Tab")
    studio.check(focused(page) == "speak-stop", "keyboard: Tab reaches Stop")
    page.keyboard.press("Space")
    studio.check(page.eval_on_selector("#speak-audio", "a => a.paused"), "keyboard: Space on Stop stops")
    # The tab bar: arrows move between screens, as a tab list does.
    page.focus("#tab-speak")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => !document.querySelector('#screen-voices').hidden")
    now = focused(page)
    hidden = page.eval_on_selector_all("main section", "ss => ss.filter(s => s.hidden).map(s => s.id)")
    studio.check(now == "tab-voices" and "screen-voices" not in hidden and "screen-speak" in hidden,
                 f"keyboard: ArrowRight in the tab bar opens Voices (focus on {now})")
    for name in ["live"]:  # Models and Benchmarks: their own tests take their screenshots
        page.click(f"#tab-{name}")
        page.wait_for_function(f"() => document.querySelector('#screen-{name}')?.children.length > 0")
        studio.shot(page, name)
    page.context.close()


if __name__ == "__main__":
    main(run)
