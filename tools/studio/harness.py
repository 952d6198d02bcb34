"""Warble Studio's browser-test harness: `warble serve` on a free loopback port (a temporary WARBLE_HOME
holding links to the installed models and ONNX Runtime, a voice library and history of its own, an API key)
and headless Chromium from Debian (`/usr/bin/chromium`) driven by Playwright, with a fake microphone that
plays a WAV file.

    with Studio() as studio:            # or attach to a running one: WARBLE_STUDIO_URL and WARBLE_STUDIO_KEY
        page = studio.page()             # the key in sessionStorage, as the page keeps it after asking
        studio.check(cond, "what was checked")
        studio.shot(page, "speak")       # $WARBLE_STUDIO_SHOTS/speak.png

Environment: WARBLE_BIN (the warble command; default: the test build's), WARBLE_HOME (the installed models),
WARBLE_STUDIO_SHOTS (screenshots; default .build-studio/shots), WARBLE_STUDIO_MIC (the fake microphone's WAV;
default the fixtures' en_fox.wav), WARBLE_CHROMIUM (default /usr/bin/chromium).
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MIC = ROOT / "Tests/Fixtures/generated/asr/en_fox.wav"
TIMEOUT_MS = 60_000


def default_warble() -> str:
    if os.environ.get("WARBLE_BIN"):
        return os.environ["WARBLE_BIN"]
    scratch = os.environ.get("WARBLE_TEST_SCRATCH", str(ROOT / ".build-test"))
    out = subprocess.run(["swift", "build", "-c", "release", "-Xswiftc", "-enable-testing", "--scratch-path", scratch,
                          "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return str(Path(out.stdout.strip()) / "warble")


class Studio:
    """A server and a browser for the tests, and their pass/fail counts."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.shots = Path(os.environ.get("WARBLE_STUDIO_SHOTS", ROOT / ".build-studio/shots"))
        self.mic = Path(os.environ.get("WARBLE_STUDIO_MIC", DEFAULT_MIC))
        self.url = os.environ.get("WARBLE_STUDIO_URL", "")
        self.key = os.environ.get("WARBLE_STUDIO_KEY", "")
        self.server: subprocess.Popen | None = None
        self.home: str | None = None
        self.log: Path | None = None
        self._playwright = None
        self.browser: Browser | None = None
        # What the voices test clones with (default: the installed Kokoro model, whose search takes a budget).
        self.clone_model = os.environ.get("WARBLE_STUDIO_CLONE_MODEL", "")

    # --- life cycle -----------------------------------------------------------------------------
    def __enter__(self) -> "Studio":
        self.shots.mkdir(parents=True, exist_ok=True)
        if not self.url:
            self._start_server()
        self._playwright = sync_playwright().start()
        self.browser = self._playwright.chromium.launch(
            executable_path=os.environ.get("WARBLE_CHROMIUM", "/usr/bin/chromium"), headless=True,
            args=["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                  f"--use-file-for-fake-audio-capture={self.mic}", "--autoplay-policy=no-user-gesture-required",
                  "--no-sandbox"])
        return self

    def __exit__(self, *exc) -> None:
        if self.browser:
            self.browser.close()
        if self._playwright:
            self._playwright.stop()
        if self.server:
            self.server.terminate()
            try:
                self.server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.server.kill()
        if self.home:
            shutil.rmtree(self.home, ignore_errors=True)

    def _start_server(self) -> None:
        source = Path(os.environ.get("WARBLE_HOME", Path.home() / ".local/share/warble"))
        if not (self.mic.is_file()):
            raise SystemExit(f"no fake microphone clip at {self.mic}: make the fixtures (tools/fixtures/make_all.py)")
        self.home = tempfile.mkdtemp(prefix="warble-studio-")
        models = Path(self.home, "models")
        models.mkdir()
        for model in sorted((source / "models").iterdir()):
            if model.is_dir():
                (models / model.name).symlink_to(model.resolve())
        # The Live screen's translation: the Marian EN→PT test model (tools/marian/make_fixtures.py), as test-live.sh links it.
        marian = ROOT / "Tests/Fixtures/generated/marian/enpt"
        if marian.is_dir() and not (models / "marian-enpt-tiny").exists():
            (models / "marian-enpt-tiny").symlink_to(marian)
        if (source / "lib").is_dir():
            Path(self.home, "lib").symlink_to((source / "lib").resolve())
        self.key = "studio-" + secrets.token_hex(8)
        self.log = Path(self.home, "server.log")
        env = dict(os.environ, WARBLE_HOME=self.home, WARBLE_API_KEY=self.key)
        log = open(self.log, "wb")
        self.server = subprocess.Popen([default_warble(), "serve", "--host", "127.0.0.1", "--port", "0",
                                        "--log-level", "notice", "--history"], env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            match = re.search(r"serving on (http://127\.0\.0\.1:\d+)", self.log.read_text(errors="replace"))
            if match:
                self.url = match.group(1)
                break
            if self.server.poll() is not None:
                raise SystemExit(f"warble serve exited:\n{self.log.read_text(errors='replace')}")
            time.sleep(0.05)
        else:
            raise SystemExit("warble serve did not listen within 60 s")
        # Ready: the default voice's model loaded and spoke once (so page timings do not include the load).
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/health/ready", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise SystemExit("warble serve was not ready within 60 s")

    # --- helpers -----------------------------------------------------------------------------------
    def page(self, with_key: bool = True, screen: str = "") -> Page:
        """A new tab (its own sessionStorage) on the page; the key already given unless `with_key` is False."""
        context = self.browser.new_context(accept_downloads=True, viewport={"width": 1100, "height": 900})
        context.grant_permissions(["microphone"], origin=self.url)
        if with_key:
            context.add_init_script(f"sessionStorage.setItem('warble-api-key', {json.dumps(self.key)})")
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("dialog", lambda dialog: dialog.accept())
        page.on("pageerror", lambda error: print(f"     page error: {error}", flush=True))
        page.goto(f"{self.url}/{'#' + screen if screen else ''}")
        return page

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        """A call to the server's API with the key (for setting up and checking)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                         headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.loads(answer.read() or b"{}")

    def check(self, condition: bool, what: str) -> bool:
        print(f"{'ok  ' if condition else 'FAIL'} {what}", flush=True)
        if condition:
            self.passed += 1
        else:
            self.failed += 1
        return condition

    def shot(self, page: Page, name: str) -> Path:
        path = self.shots / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        self.check(path.stat().st_size > 1000, f"screenshot {path}")
        return path

    def status(self, page: Page) -> str:
        return page.locator("#status").inner_text()


def main(run) -> None:
    """Runs `run(studio)` alone (a test file started by itself) and exits 1 on a failure."""
    with Studio() as studio:
        started = time.monotonic()
        try:
            run(studio)
        except Exception as error:  # an unexpected failure is one failed check, with what happened
            studio.check(False, f"{run.__module__}: {type(error).__name__}: {error}")
        print(f"{run.__module__}: {studio.passed} passed, {studio.failed} failed ({time.monotonic() - started:.1f} s)")
    sys.exit(1 if studio.failed else 0)
