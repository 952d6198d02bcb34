"""Models: the installed models and the pullable ones are listed with size and licence; a small model is pulled
from the Hub imitation (tools/hub/hub_server.py) with its <progress> bar moving to done, then removed after the
confirmation. Pulls need the imitation as the server's HF_ENDPOINT, so this test starts a server of its own (the
harness's, with HF_ENDPOINT set) beside the shared one and opens it in the shared browser; screenshot of the screen."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tools.studio.harness import ROOT, Studio, main

HUB_TREE = ROOT / "Tests/Fixtures/generated/hub/tree"
# A small catalogue model that needs no conversion on pull (the imitation's synthetic export).
REFERENCE = "sensevoice-small:int8"
MODEL_ID = "sensevoice-small-int8"


def start_hub(log: Path) -> tuple[subprocess.Popen, str]:
    hub = subprocess.Popen([sys.executable, str(ROOT / "tools/hub/hub_server.py"), "--root", str(HUB_TREE), "--port", "0"],
                           stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        match = re.search(r"^listening on (http://[0-9.:]+)$", log.read_text(errors="replace"), re.M)
        if match:
            return hub, match.group(1)
        if hub.poll() is not None:
            break
        time.sleep(0.05)
    hub.kill()
    raise RuntimeError(f"the Hub imitation did not start: {log.read_text(errors='replace')}")


def check_models(studio: Studio) -> None:
    page = studio.page(screen="models")
    page.wait_for_function("() => document.querySelector('#screen-models')?.dataset.loaded !== undefined")
    listed = int(page.eval_on_selector("#screen-models", "s => s.dataset.loaded"))
    installed = page.locator("#models-installed tr").count()
    studio.check(listed > 0 and installed > 0, f"models: {listed} catalogue entries listed, {installed} installed with a Remove button")
    names = page.eval_on_selector_all("#models-installed tr td:first-child", "cs => cs.map(c => c.textContent)")
    studio.check(len(names) == len(set(names)), f"models: each installed model listed once ({names})")
    pull = page.locator(f"#models-pull-{MODEL_ID}")
    row = page.locator(f"#models-available tr:has(#models-pull-{MODEL_ID})")
    studio.check(pull.count() == 1 and "FunASR" in row.inner_text(),
                 f"models: {REFERENCE} can be pulled, with its licence ({row.inner_text().strip()!r})")
    sized = page.locator("#models-available td:nth-child(3)").evaluate_all("cells => cells.filter(c => /B$/.test(c.textContent)).length")
    studio.check(sized > 0, f"models: {sized} pullable models show their size (the catalogue's, where it has one)")
    page.fill("#models-filter", "sensevoice int8")
    # The filter draws the rows again: the bar is watched in the row drawn last.
    studio.check(page.locator("#models-available tr").count() >= 1, "models: the filter narrows the list")
    page.evaluate("""id => {
        const bar = document.getElementById('models-progress-' + id);
        window.progressSeen = [];
        new MutationObserver(() => window.progressSeen.push(bar.value)).observe(bar, { attributes: true });
    }""", MODEL_ID)
    page.click(f"#models-pull-{MODEL_ID}")
    page.wait_for_function("id => document.getElementById('models-remove-' + id)", arg=MODEL_ID)
    seen = page.evaluate("window.progressSeen")
    studio.check(any(0 < v < 1 for v in seen) or len(seen) >= 2,
                 f"models: the progress bar moved while pulling ({len(seen)} updates) and the model is now installed")
    studio.check("Installed " + MODEL_ID in studio.status(page), f"models: status says {studio.status(page)!r}")
    studio.shot(page, "models")
    page.click(f"#models-remove-{MODEL_ID}")  # the harness accepts the confirmation
    page.wait_for_function("id => !document.getElementById('models-remove-' + id) && document.getElementById('models-pull-' + id)",
                           arg=MODEL_ID)
    studio.check("Removed " + MODEL_ID in studio.status(page), f"models: removed after confirmation ({studio.status(page)!r})")


def run(studio: Studio) -> None:
    work = Path(studio.shots).parent
    work.mkdir(parents=True, exist_ok=True)
    hub, url = start_hub(work / "hub-models.log")
    saved_env = os.environ.get("HF_ENDPOINT")
    saved = (studio.url, studio.key)
    own = Studio()  # a server of its own (no second browser: the shared one opens its page)
    try:
        os.environ["HF_ENDPOINT"] = url
        own._start_server()
        studio.url, studio.key = own.url, own.key
        check_models(studio)
    finally:
        studio.url, studio.key = saved
        if saved_env is None:
            os.environ.pop("HF_ENDPOINT", None)
        else:
            os.environ["HF_ENDPOINT"] = saved_env
        own.__exit__(None, None, None)
        hub.terminate()
        hub.wait(timeout=20)


if __name__ == "__main__":
    main(run)
