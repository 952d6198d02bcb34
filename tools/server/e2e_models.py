"""The model routes of `warble serve` end to end: GET /v1/models/available, POST /v1/models/pull (server-sent
progress) and DELETE /v1/models/{id}, against the Hub imitation (tools/hub/hub_server.py) over the tree
tools/hub/make_fixtures.py makes. Starts both servers itself, with a WARBLE_HOME of its own holding the
default voice (a link to the installed one) and ONNX Runtime; pulls a small recognition model (the imitation's
synthetic export of a catalogue entry), checks it is listed as installed, pulled again is "already installed",
the default voice cannot be removed, the pulled model can, and the API key is required; and GET /v1/bench/report over
--bench-report (none, then the newest of two).

    python3 tools/server/e2e_models.py --warble PATH [--hub-root Tests/Fixtures/generated/hub/tree]

Prints one line per check and "e2e_models.py: N passed, N failed"; exit status 1 when any failed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A small catalogue model that needs no conversion on pull (the imitation's synthetic graphs).
PULLED_REFERENCE = "sensevoice-small:int8"
PULLED_ID = "sensevoice-small-int8"
results = {"passed": 0, "failed": 0}


def check(condition: bool, what: str) -> None:
    results["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + what, flush=True)


def wait_for_line(process: subprocess.Popen, log: Path, pattern: str, seconds: float = 60) -> re.Match:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        match = re.search(pattern, log.read_text(errors="replace"), re.M)
        if match:
            return match
        if process.poll() is not None:
            break
        time.sleep(0.05)
    sys.exit(f"e2e_models.py: no '{pattern}' from {process.args[0]}:\n" + log.read_text(errors="replace"))


def request(base: str, method: str, path: str, *, key: str | None, body: dict | None = None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        return urllib.request.urlopen(req, timeout=120)
    except urllib.error.HTTPError as error:
        return error


def json_of(response) -> dict:
    return json.loads(response.read() or b"{}")


def pull(base: str, key: str, reference: str) -> tuple[int, list[dict]]:
    """The pull's status and its events, read as they arrive."""
    response = request(base, "POST", "/v1/models/pull", key=key, body={"model": reference})
    if response.status != 200:
        return response.status, [json_of(response)]
    events = [json.loads(line[6:]) for line in (raw.decode().rstrip("\n") for raw in response) if line.startswith("data: ")]
    return 200, events


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warble", required=True, help="the warble command to serve with")
    ap.add_argument("--hub-root", default=str(ROOT / "Tests/Fixtures/generated/hub/tree"))
    args = ap.parse_args()
    real_home = Path(os.environ.get("WARBLE_HOME") or Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local/share") / "warble")
    work = Path(tempfile.mkdtemp(prefix="warble-e2e-models-"))
    processes: list[subprocess.Popen] = []
    try:
        hub_log = work / "hub.log"
        hub = subprocess.Popen([sys.executable, str(ROOT / "tools/hub/hub_server.py"), "--root", args.hub_root, "--port", "0"],
                               stdout=hub_log.open("w"), stderr=subprocess.STDOUT)
        processes.append(hub)
        hub_url = wait_for_line(hub, hub_log, r"^listening on (http://[0-9.:]+)$").group(1)

        home = work / "home"
        (home / "models").mkdir(parents=True)
        (home / "lib").symlink_to(real_home / "lib")
        # The default voice (defaults.json's), linked from the installed models: the one model the server must not remove.
        default_voice_model = json.loads((ROOT / "Sources/WarbleHub/Catalogue/defaults.json").read_text())["voice"]
        (home / "models" / default_voice_model).symlink_to(real_home / "models" / default_voice_model)

        key = "models-e2e-key"
        server_log = work / "serve.log"
        env = dict(os.environ, WARBLE_HOME=str(home), HF_ENDPOINT=hub_url, WARBLE_API_KEY=key)
        env.pop("HF_HUB_OFFLINE", None)
        bench = work / "bench"
        server = subprocess.Popen([args.warble, "serve", "--host", "127.0.0.1", "--port", "0", "--no-preload", "--log-level", "notice",
                                   "--bench-report", str(bench)],
                                  env=env, stdout=server_log.open("w"), stderr=subprocess.STDOUT)
        processes.append(server)
        port = wait_for_line(server, server_log, r"^warble: serving on http://127\.0\.0\.1:(\d+)$").group(1)
        base = f"http://127.0.0.1:{port}"

        listed = json_of(request(base, "GET", "/v1/models/available", key=key))["data"]
        entry = next((e for e in listed if e["reference"] == PULLED_REFERENCE), None)
        check(entry is not None and entry["id"] == PULLED_ID and entry["licence"] and not entry["installed"],
              f"GET /v1/models/available lists {PULLED_REFERENCE} (id {PULLED_ID}, licence, not installed) among {len(listed)}")
        check(any(e.get("bytes") for e in listed), "GET /v1/models/available gives sizes where the catalogue knows them")

        status = request(base, "POST", "/v1/models/pull", key=None, body={"model": PULLED_REFERENCE}).status
        check(status == 401, f"POST /v1/models/pull without the key: 401 (got {status})")

        started = time.monotonic()
        status, events = pull(base, key, PULLED_REFERENCE)
        progress = [e for e in events if e.get("type") == "model.pull.progress"]
        done = events[-1] if events else {}
        check(status == 200 and len(progress) >= 2 and progress[-1]["bytes"] == progress[-1]["total"] > 0
              and all(a["bytes"] <= b["bytes"] for a, b in zip(progress, progress[1:])),
              f"POST /v1/models/pull streams progress up to the total ({len(progress)} events, "
              f"{progress[-1]['total'] if progress else 0} bytes, {time.monotonic() - started:.1f} s)")
        check(done.get("type") == "model.pull.done" and done.get("id") == PULLED_ID and done.get("already_installed") is False,
              f"the pull ends with model.pull.done for {PULLED_ID}: {done}")
        check((home / "models" / PULLED_ID / "manifest.json").is_file(), f"the model is installed in WARBLE_HOME/models/{PULLED_ID}")
        listed = json_of(request(base, "GET", "/v1/models/available", key=key))["data"]
        check(any(e["id"] == PULLED_ID and e["installed"] for e in listed), "GET /v1/models/available now marks it installed")

        status, events = pull(base, key, PULLED_REFERENCE)
        check(events and events[-1].get("already_installed") is True, "pulled again: done, already installed")
        status, events = pull(base, key, "joe")
        message = (events[-1].get("error") or {}).get("message", "") if events else ""
        check(status == 200 and "is not a model warble can pull" in message, f"a bad reference ends with an error event: {message}")
        status = request(base, "POST", "/v1/models/pull", key=key, body={"model": ""}).status
        check(status == 400, f"an empty reference is 400 (got {status})")

        response = request(base, "DELETE", f"/v1/models/{default_voice_model}", key=key)
        check(response.status == 409 and "default" in json_of(response)["error"]["message"],
              f"DELETE of the default voice's model ({default_voice_model}) is refused: 409")
        check(request(base, "DELETE", f"/v1/models/{PULLED_ID}", key=None).status == 401, "DELETE without the key: 401")
        for unsafe in [".hidden", "..%2F..%2Flib", "a%5Cb"]:
            response = request(base, "DELETE", f"/v1/models/{unsafe}", key=key)
            check(response.status in (400, 404) and "error" in json_of(response) and (home / "lib").exists(),
                  f"DELETE /v1/models/{unsafe}: {response.status}, nothing removed")
        response = request(base, "DELETE", f"/v1/models/{PULLED_ID}", key=key)
        check(response.status == 200 and json_of(response).get("deleted") is True and not (home / "models" / PULLED_ID).exists(),
              f"DELETE /v1/models/{PULLED_ID} removes it")
        check(request(base, "DELETE", f"/v1/models/{PULLED_ID}", key=key).status == 404, "removed again: 404")

        # GET /v1/bench/report over --bench-report: none yet (404 saying how), then the newest of two reports.
        response = request(base, "GET", "/v1/bench/report", key=key)
        check(response.status == 404 and f"warble bench report -o {bench}" in json_of(response)["error"]["message"],
              "GET /v1/bench/report with no report: 404 naming the command")
        machine = {"build": "release", "cores": 2, "cpu": "e2e CPU", "date": "2026-11-29", "onnxRuntime": "1"}
        for name, rtf, when in [("older", 1.0, 1_000_000), ("newer", 2.0, 2_000_000)]:
            (bench / name).mkdir(parents=True)
            report = bench / name / "report.json"
            report.write_text(json.dumps({"machine": machine, "runs": 1, "skipped": [],
                                          "rows": [{"kind": "tts", "model": name, "engine": "warble", "realTimeFactor": rtf}]}))
            os.utime(report, (when, when))
        answer = json_of(request(base, "GET", "/v1/bench/report", key=key))
        check(answer.get("report", {}).get("rows", [{}])[0].get("model") == "newer" and answer.get("folder") == str(bench / "newer"),
              "GET /v1/bench/report serves the newest report.json under --bench-report")
        check(request(base, "GET", "/v1/bench/report", key=None).status == 401, "GET /v1/bench/report without the key: 401")
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)
    print(f"e2e_models.py: {results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
