"""History: the sessions kept by the requests above are listed, one opens with a waveform and plays, its
export downloads a valid ZIP, search finds sessions by their texts, delete removes one."""
from __future__ import annotations

import tempfile
import urllib.error
import zipfile
from pathlib import Path

from tools.studio.harness import Studio, main


def run(studio: Studio) -> None:
    sessions = studio.api("GET", "/v1/history?limit=100")["data"]
    page = studio.page(screen="history")
    page.wait_for_function("() => document.querySelector('#screen-history')?.dataset.loaded !== undefined")
    listed = int(page.eval_on_selector("#screen-history", "s => s.dataset.loaded"))
    rows = page.locator("#history-rows tr").count()
    studio.check(len(sessions) >= 2 and listed == len(sessions) == rows,
                 f"history: the {len(sessions)} sessions kept are listed ({rows} rows)")
    speech = next(s for s in sessions if s.get("kind") == "speech")
    sid = speech["id"]
    page.click(f"#history-open-{sid}")
    page.wait_for_function(f"() => document.querySelector('#history-wave')?.dataset.drawn === '{sid}'")
    studio.check(True, f"history: session {sid}'s waveform is drawn from its audio")
    page.click("#history-play")
    page.wait_for_function("() => document.querySelector('#history-audio')?.currentTime > 0")
    studio.check(True, f"history: session {sid} plays")
    studio.shot(page, "history")
    with page.expect_download() as info:
        page.click("#history-export")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, info.value.suggested_filename)
        info.value.save_as(path)
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            studio.check(archive.testzip() is None and "manifest.json" in names and any(n.endswith(".wav") for n in names),
                         f"history: Export downloads a valid ZIP ({path.name}: {len(names)} entries)")
    found = studio.api("GET", "/v1/history?q=clon%2A%20voice")["data"]
    page.fill("#history-search", "clon* voice")
    page.press("#history-search", "Enter")
    page.wait_for_function(f"() => document.querySelector('#history-rows')?.children.length === {len(found)}")
    texts = page.inner_text("#history-rows")
    studio.check(0 < len(found) < len(sessions) and "cloned" in texts and "Ready." not in texts,
                 f"history: search (GET /v1/history?q=clon* voice) lists the {len(found)} matching sessions")
    for query, why in [("q=a&after=1", "q with after"), ("q=" + "a" * 1001, "q over 1,000 characters")]:
        try:
            studio.api("GET", f"/v1/history?{query}")
            studio.check(False, f"history: {why} is refused")
        except urllib.error.HTTPError as error:
            studio.check(error.code == 400, f"history: {why} is 400 ({error.code})")
    page.fill("#history-search", "zzzz no such words")
    page.click("#history-search-go")
    page.wait_for_function("() => document.querySelector('#history-rows')?.children.length === 0")
    studio.check(True, "history: a search with no match lists nothing")
    page.click("#history-refresh")
    page.wait_for_function(f"() => document.querySelector('#history-rows')?.children.length === {len(sessions)}")
    page.click("#history-delete")
    page.wait_for_function(f"() => !document.querySelector('#history-row-{sid}')")
    try:
        studio.api("GET", f"/v1/history/{sid}")
        studio.check(False, f"history: Delete removes session {sid}")
    except urllib.error.HTTPError as error:
        studio.check(error.code == 404, f"history: Delete removes session {sid} (then 404)")
    page.context.close()


if __name__ == "__main__":
    main(run)
