"""Multi-host test of `warble serve`: three replicas, each in its own network namespace, behind HAProxy,
scraped by Prometheus; under load, one replica is killed (SIGKILL) and another drained (SIGTERM).

Run by scripts/test-multihost.sh (as root: it makes network namespaces and veth pairs). Needs
Debian's haproxy and prometheus, the default voice (Piper en_US-joe-medium) and whisper-tiny.en.

    replica r1 (netns, 10.N.1.2:8880) --veth-- 10.N.1.1 \
    replica r2 (netns, 10.N.2.2:8880) --veth-- 10.N.2.1  >-- HAProxy 127.0.0.1:P --- the load (OpenAI's client)
    replica r3 (netns, 10.N.3.2:8880) --veth-- 10.N.3.1 /    Prometheus 127.0.0.1:Q scrapes the three

HAProxy checks `GET /health/ready` every 200 ms, names the replica that answered in the response header
X-Warble-Replica and logs each request's X-Test-Id with its server and termination state, so a request
that failed without an answer is still attributed to a replica. Every wait is a poll with a deadline.

Prints one line per check and "multihost: N passed, N failed"; exits non-zero when a check failed.
"""

import argparse
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import wave

import openai

VOICE = "en_US-joe-medium"
ASR_MODEL = "whisper-tiny.en"
PORT = 8880
REPLICAS = ("r1", "r2", "r3")
KILLED, DRAINED, SURVIVOR = "r1", "r2", "r3"
SENTENCES = [
    "The replicas answer in turn while the balancer watches their health.",
    "A drained server finishes what it started before it goes away.",
    "Requests keep coming while one of the servers is stopped.",
]

failures: list[str] = []
passed = 0


def check(condition: bool, what: str) -> None:
    global passed
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if condition:
        passed += 1
    else:
        failures.append(what)


def note(what: str) -> None:
    print(f"     {what}", flush=True)


def wait_for(what: str, predicate, timeout: float, interval: float = 0.05):
    """Polls `predicate` until it returns something truthy; raises TimeoutError naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(*args: str) -> None:
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def http_status(url: str, headers: dict | None = None, timeout: float = 2.0) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


class Network:
    """Three network namespaces, each joined to the root namespace by a veth pair on its own /24."""

    def __init__(self, tag: int):
        self.tag = tag
        self.octet = 200 + tag % 50
        self.made: list[tuple[str, str]] = []

    def namespace(self, name: str) -> str:
        return f"warble-mh{self.tag}-{name}"

    def address(self, name: str) -> str:
        return f"10.{self.octet}.{REPLICAS.index(name) + 1}.2"

    def up(self) -> None:
        for name in REPLICAS:
            i = REPLICAS.index(name) + 1
            ns, outer, inner = self.namespace(name), f"wmh{self.tag}o{i}", f"wmh{self.tag}i{i}"
            run("ip", "netns", "add", ns)
            self.made.append((ns, outer))
            run("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
            run("ip", "link", "set", inner, "netns", ns)
            run("ip", "addr", "add", f"10.{self.octet}.{i}.1/24", "dev", outer)
            run("ip", "link", "set", outer, "up")
            run("ip", "netns", "exec", ns, "ip", "addr", "add", f"{self.address(name)}/24", "dev", inner)
            run("ip", "netns", "exec", ns, "ip", "link", "set", inner, "up")
            run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")

    def down(self) -> None:
        for ns, outer in self.made:
            subprocess.run(["ip", "link", "del", outer], stderr=subprocess.DEVNULL)
            subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)


class Replica:
    def __init__(self, name: str, warble: str, home: str, net: Network, key: str, logs: str):
        self.name = name
        self.address = net.address(name)
        self.log_path = os.path.join(logs, f"{name}.log")
        env = dict(os.environ, WARBLE_HOME=home, WARBLE_API_KEY=key)
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", net.namespace(name), warble, "serve", "--host", self.address,
             "--port", str(PORT), "--threads", "1", "--drain-seconds", "30", "--log-level", "notice"],
            env=env, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "w"))

    @property
    def instance(self) -> str:
        return f"{self.address}:{PORT}"

    def ready(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"replica {self.name} exited ({self.process.returncode}): {open(self.log_path).read()[-2000:]}")
        return http_status(f"http://{self.instance}/health/ready") == 200

    def memory_kib(self) -> dict[str, int]:
        """VmRSS and VmHWM of the server (the child of `ip netns exec`, which execs it: the same pid)."""
        fields = {}
        try:
            with open(f"/proc/{self.process.pid}/status") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        fields[key] = int(value.split()[0])
        except OSError:
            pass
        return fields


class HAProxy:
    def __init__(self, directory: str, replicas: list[Replica]):
        self.port = free_port()
        self.socket_path = os.path.join(directory, "haproxy.sock")
        self.log_path = os.path.join(directory, "haproxy.log")
        config = os.path.join(directory, "haproxy.cfg")
        servers = "\n".join(f"    server {r.name} {r.instance} check" for r in replicas)
        with open(config, "w") as f:
            f.write(f"""global
    log stdout format raw local0
    stats socket {self.socket_path} level admin
defaults
    mode http
    log global
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout check 3s
    retries 3
    option redispatch 1
    option http-server-close
frontend speech
    bind 127.0.0.1:{self.port}
    http-request capture req.hdr(x-test-id) len 40
    log-format "request id=%[capture.req.hdr(0)] server=%s status=%ST termination=%ts"
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /health/ready
    http-check expect status 200
    default-server inter 200ms fastinter 100ms downinter 500ms fall 2 rise 2
    http-response set-header X-Warble-Replica %s
{servers}
""")
        subprocess.run(["haproxy", "-c", "-q", "-f", config], check=True)
        self.process = subprocess.Popen(["haproxy", "-db", "-f", config], stdout=open(self.log_path, "w"),
                                        stderr=subprocess.STDOUT)

    def stats(self) -> dict[str, dict[str, str]]:
        """`show stat` of the backend's servers: name -> {status, scur, stot, ...}."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(2)
            s.connect(self.socket_path)
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = {}
        for line in lines[1:]:
            row = dict(zip(header, line.split(",")))
            if row.get("pxname") == "replicas" and row.get("svname") in REPLICAS:
                rows[row["svname"]] = row
        return rows

    def log_lines(self) -> dict[str, dict[str, str]]:
        """The request log: test id -> {server, status, termination}."""
        lines = {}
        with open(self.log_path) as f:
            for line in f:
                if not line.startswith("request "):
                    continue
                fields = dict(part.split("=", 1) for part in line.split()[1:] if "=" in part)
                lines[fields.get("id", "")] = fields
        return lines


class Prometheus:
    def __init__(self, directory: str, replicas: list[Replica], key: str):
        self.port = free_port()
        config = os.path.join(directory, "prometheus.yml")
        targets = ", ".join(f'"{r.instance}"' for r in replicas)
        with open(config, "w") as f:
            f.write(f"""global:
  scrape_interval: 500ms
  scrape_timeout: 400ms
scrape_configs:
  - job_name: warble
    authorization:
      credentials: "{key}"
    static_configs:
      - targets: [{targets}]
""")
        self.log_path = os.path.join(directory, "prometheus.log")
        self.process = subprocess.Popen(
            ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={os.path.join(directory, 'tsdb')}",
             f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"],
            stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT)

    def query(self, promql: str) -> dict[str, float]:
        """An instant query: instance -> value."""
        url = f"http://127.0.0.1:{self.port}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                body = json.load(r)
        except OSError:
            return {}
        return {item["metric"].get("instance", ""): float(item["value"][1]) for item in body["data"]["result"]}

    def targets(self) -> list[dict]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v1/targets", timeout=5) as r:
            return json.load(r)["data"]["activeTargets"]


class Load:
    """Client threads sending speech and transcription requests through HAProxy, one record per request."""

    def __init__(self, base_url: str, key: str, clip: bytes, threads: int):
        self.base_url, self.key, self.clip = base_url, key, clip
        self.records: list[dict] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.counter = 0
        self.threads = [threading.Thread(target=self.loop, args=(i,), daemon=True) for i in range(threads)]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def stop(self) -> None:
        self.stopping.set()
        for t in self.threads:
            t.join(timeout=120)

    def next_id(self) -> str:
        with self.lock:
            self.counter += 1
            return f"t{self.counter:05d}"

    def done(self) -> list[dict]:
        with self.lock:
            return list(self.records)

    def loop(self, index: int) -> None:
        client = openai.OpenAI(base_url=self.base_url, api_key=self.key, max_retries=0,
                               timeout=60.0)
        n = 0
        while not self.stopping.is_set():
            n += 1
            kind = "speech" if (n + index) % 2 else "transcription"
            test_id = self.next_id()
            record = {"id": test_id, "kind": kind, "start": time.monotonic()}
            try:
                if kind == "speech":
                    raw = client.audio.speech.with_raw_response.create(
                        model="tts-1", voice=VOICE, input=SENTENCES[n % len(SENTENCES)], response_format="wav",
                        extra_headers={"X-Test-Id": test_id})
                    data = raw.content
                    with wave.open(io.BytesIO(data)) as w:
                        ok = w.getnframes() > w.getframerate() // 2
                else:
                    raw = client.audio.transcriptions.with_raw_response.create(
                        model="whisper-1", file=("clip.wav", self.clip, "audio/wav"), response_format="json",
                        extra_headers={"X-Test-Id": test_id})
                    ok = "replica" in raw.parse().text.lower()
                record.update(ok=ok, replica=raw.headers.get("x-warble-replica"),
                              error=None if ok else "unexpected content")
            except Exception as error:  # noqa: BLE001 - every failure is recorded and attributed later
                cause = f" ({type(error.__cause__).__name__}: {error.__cause__})" if error.__cause__ else ""
                record.update(ok=False, replica=None, error=f"{type(error).__name__}: {error}{cause}"[:300])
            record["end"] = time.monotonic()
            with self.lock:
                self.records.append(record)


class DirectStream(threading.Thread):
    """A long speech request (WAV, streamed sentence by sentence) sent straight to one replica, so a request is
    surely in flight on it when it is signalled: `started` is set once its first audio arrived."""

    TEXT = " ".join(f"This is sentence number {i} of a long answer that streams while the replica is stopped."
                    for i in range(1, 21))

    def __init__(self, replica: "Replica", key: str):
        super().__init__(daemon=True)
        self.replica, self.key = replica, key
        self.started = threading.Event()
        self.finished = threading.Event()
        self.audio_bytes = 0
        self.error: str | None = None

    def run(self) -> None:
        import http.client
        connection = http.client.HTTPConnection(self.replica.address, PORT, timeout=60)
        try:
            body = json.dumps({"model": "tts-1", "voice": VOICE, "input": self.TEXT, "response_format": "wav"})
            connection.request("POST", "/v1/audio/speech", body=body,
                               headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"})
            response = connection.getresponse()
            if response.status != 200:
                raise RuntimeError(f"status {response.status}")
            self.audio_bytes = len(response.read(4096))
            self.started.set()
            while chunk := response.read(65536):
                self.audio_bytes += len(chunk)
        except Exception as error:  # noqa: BLE001 - the outcome is what the test checks
            self.error = f"{type(error).__name__}: {error}"
        finally:
            connection.close()
            self.started.set()
            self.finished.set()

    @property
    def seconds(self) -> float:
        return max(0, self.audio_bytes - 44) / 2 / 22050  # 16-bit mono at Piper joe's 22,050 Hz


def metric_sum(prom: Prometheus, expression: str) -> dict[str, float]:
    return prom.query(f"sum by (instance) ({expression})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warble", required=True, help="the warble command the replicas run")
    parser.add_argument("--home", required=True, help="WARBLE_HOME with the default voice and whisper-tiny.en")
    parser.add_argument("--threads", type=int, default=4, help="client threads of the load")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs, configurations) and print its path")
    args = parser.parse_args()

    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="warble-multihost-")
    key = f"mh-{os.getpid()}-{int(time.time())}"
    net = Network(os.getpid() % 10000)
    replicas: list[Replica] = []
    haproxy = prometheus = load = None
    try:
        # A home per replica: the installed models and ONNX Runtime linked, nothing else shared.
        homes = {}
        for name in REPLICAS:
            homes[name] = os.path.join(work, f"home-{name}")
            os.makedirs(homes[name])
            for part in ("models", "lib"):
                if os.path.exists(os.path.join(args.home, part)):
                    os.symlink(os.path.join(args.home, part), os.path.join(homes[name], part))
        net.up()
        replicas = [Replica(name, args.warble, homes[name], net, key, work) for name in REPLICAS]
        by_name = {r.name: r for r in replicas}
        wait_for("the three replicas to be ready", lambda: all(r.ready() for r in replicas), timeout=120)
        check(True, f"three replicas ready in their own network namespaces ({', '.join(r.instance for r in replicas)})")
        idle = {r.name: r.memory_kib() for r in replicas}

        haproxy = HAProxy(work, replicas)
        wait_for("HAProxy to see the three replicas UP",
                 lambda: os.path.exists(haproxy.socket_path) and all(
                     s["status"] == "UP" for s in haproxy.stats().values()) and len(haproxy.stats()) == 3, timeout=20)
        check(True, "HAProxy's health checks on /health/ready: the three replicas UP")

        prometheus = Prometheus(work, replicas, key)
        wait_for("Prometheus to scrape the three replicas (up == 1)",
                 lambda: len([v for v in prometheus.query("up").values() if v == 1]) == 3, timeout=30)
        targets = prometheus.targets()
        check(all(t["health"] == "up" and not t["lastError"] for t in targets) and len(targets) == 3,
              "Prometheus scrapes /metrics of the three replicas (bearer key) and parses it: up == 1, no scrape error")
        gauges = prometheus.query("warble_ready")
        check(len(gauges) == 3 and all(v == 1 for v in gauges.values()),
              "Prometheus has warble_ready == 1 for each replica")

        base_url = f"http://127.0.0.1:{haproxy.port}/v1"
        setup_client = openai.OpenAI(base_url=base_url, api_key=key, max_retries=0)
        raw = setup_client.audio.speech.with_raw_response.create(
            model="tts-1", voice=VOICE, input="Every replica answers the same way.", response_format="wav")
        clip, setup_replica = raw.content, raw.headers.get("x-warble-replica")

        load = Load(base_url, key, clip, args.threads)
        load.start()
        wait_for("each replica to answer two requests of the load",
                 lambda: all(sum(1 for x in load.done() if x["ok"] and x["replica"] == n) >= 2 for n in REPLICAS),
                 timeout=90)
        wait_for("Prometheus to count audio requests on every replica",
                 lambda: len([v for v in metric_sum(prometheus, 'warble_http_requests_total{route=~"/v1/audio/.*",status="200"}').values() if v > 0]) == 3,
                 timeout=20)
        check(True, "the load reaches the three replicas; Prometheus counts their audio requests")

        # SIGKILL a replica while HAProxy has a request in flight on it, then SIGTERM another likewise.
        killed, drained, survivor = by_name[KILLED], by_name[DRAINED], by_name[SURVIVOR]
        doomed = DirectStream(killed, key)
        doomed.start()
        wait_for(f"a long speech stream on {KILLED} to start", doomed.started.is_set, timeout=60)
        kill_time = time.monotonic()
        killed.process.send_signal(signal.SIGKILL)
        killed.process.wait(timeout=10)
        # Gone: its sockets are closed once the process is reaped. Until then its kernel still completes
        # connections into the dying listener's backlog, and a request HAProxy sent on one is in flight there.
        gone_time = time.monotonic()
        note(f"SIGKILL {KILLED} (pid {killed.process.pid}); reaped {gone_time - kill_time:.3f} s later")
        survivor_stream = DirectStream(drained, key)
        survivor_stream.start()
        wait_for(f"a long speech stream on {DRAINED} to start", survivor_stream.started.is_set, timeout=60)
        drain_time = time.monotonic()
        drained.process.send_signal(signal.SIGTERM)
        note(f"SIGTERM {DRAINED} (pid {drained.process.pid})")

        wait_for("HAProxy to mark the killed and the drained replica DOWN",
                 lambda: all(haproxy.stats()[n]["status"].startswith("DOWN") for n in (KILLED, DRAINED)), timeout=20)
        down_time = time.monotonic()
        down_stats = haproxy.stats()
        check(True, f"HAProxy marked {KILLED} and {DRAINED} DOWN ({down_time - kill_time:.2f} s after the kill, "
                    f"{down_time - drain_time:.2f} s after the SIGTERM)")
        exit_status = wait_for(f"{DRAINED} to exit after draining", lambda: drained.process.poll() is not None and [drained.process.returncode],
                               timeout=40)[0]
        check(exit_status == 0, f"the drained replica exited with status 0 (got {exit_status})")

        # More load with two replicas gone: all of it must go to the survivor.
        after = len(load.done())
        wait_for("twelve more requests after both were DOWN", lambda: len(load.done()) >= after + 12, timeout=90)
        load.stop()
        records = load.done()
        end_stats = haproxy.stats()

        for name in (KILLED, DRAINED):
            check(end_stats[name]["stot"] == down_stats[name]["stot"] and end_stats[name]["status"].startswith("DOWN"),
                  f"HAProxy routed nothing more to {name} once DOWN (sessions {down_stats[name]['stot']} -> {end_stats[name]['stot']})")
        later = [x for x in records if x["start"] > down_time]
        check(len(later) >= 12 and all(x["ok"] and x["replica"] == SURVIVOR for x in later),
              f"the {len(later)} requests sent after both were DOWN were all answered by {SURVIVOR}")

        # Every failure: a request HAProxy had sent to the killed replica, in flight when it was killed.
        logged = haproxy.log_lines()
        failed = [x for x in records if not x["ok"]]
        served = {n: sum(1 for x in records if x["ok"] and x["replica"] == n) for n in REPLICAS}
        note(f"requests: {len(records)}, failed: {len(failed)}, answered by r1/r2/r3: "
             f"{served['r1']}/{served['r2']}/{served['r3']}")
        for x in failed:
            note(f"failed {x['id']} ({x['kind']}, {x['start'] - kill_time:+.3f} to {x['end'] - kill_time:+.3f} s from the kill): "
                 f"{x['error']}; HAProxy: {logged.get(x['id'])}")
        doomed.finished.wait(timeout=30)
        check(doomed.error is not None, f"the speech stream in flight on {KILLED} was cut off ({doomed.seconds:.1f} s of audio "
                                        f"before: {doomed.error})")
        survivor_stream.finished.wait(timeout=60)
        check(survivor_stream.error is None and survivor_stream.seconds > 60,
              f"the speech stream in flight on {DRAINED} at its SIGTERM finished whole ({survivor_stream.seconds:.1f} s of audio)")
        check(all(x["start"] < gone_time and x["end"] > kill_time for x in failed),
              f"every failed request was in flight when {KILLED} was killed (sent before it was gone, not answered before the kill)")
        aborted = {n: int(end_stats[n]["eresp"] or 0) + int(end_stats[n]["srv_abrt"] or 0) for n in REPLICAS}
        note("HAProxy's server errors (eresp + srv_abrt) r1/r2/r3: " + "/".join(str(aborted[n]) for n in REPLICAS)
             + "; retried/redispatched: " + "/".join(f"{end_stats[n]['wretr']}/{end_stats[n]['wredis']}" for n in REPLICAS))
        # HAProxy's own accounting: the sessions it gave each server (less those it redispatched) against the
        # answers the clients got from it (X-Warble-Replica, the set-up's request too): the difference is the
        # failed requests on the killed replica, and nothing on the other two.
        answers = {n: served[n] + (1 if setup_replica == n else 0) for n in REPLICAS}
        given = {n: int(end_stats[n]["stot"]) - int(end_stats[n]["wredis"] or 0) for n in REPLICAS}
        note("HAProxy's sessions less redispatches r1/r2/r3: " + "/".join(str(given[n]) for n in REPLICAS)
             + "; answers r1/r2/r3: " + "/".join(str(answers[n]) for n in REPLICAS))
        check(given[KILLED] - answers[KILLED] == len(failed) and given[DRAINED] == answers[DRAINED]
              and given[SURVIVOR] == answers[SURVIVOR]
              and all(logged.get(x["id"], {}).get("server", KILLED) == KILLED for x in failed),
              f"HAProxy's sessions account for every failure on {KILLED} and none on {DRAINED} or {SURVIVOR}")
        on_drained = [x for x in records if logged.get(x["id"], {}).get("server") == DRAINED]
        in_flight = [x for x in on_drained if x["start"] < drain_time < x["end"]]
        check(all(x["ok"] for x in on_drained),
              f"no request on the drained replica failed ({len(on_drained)} answered, {len(in_flight)} of them "
              f"in flight at the SIGTERM)")

        # Prometheus: up goes to 0 for both; its request counters grew on each replica before.
        down = wait_for("Prometheus's up == 0 for the killed and drained replicas",
                        lambda: (lambda up: up if up.get(killed.instance) == 0 and up.get(drained.instance) == 0 else None)(prometheus.query("up")),
                        timeout=20)
        check(down.get(survivor.instance) == 1, f"Prometheus: up == 0 for {KILLED} and {DRAINED}, 1 for {SURVIVOR}")
        answered = 'max_over_time(warble_http_requests_total{route=~"/v1/audio/(speech|transcriptions)",status="200"}[10m])'
        expected = served[SURVIVOR] + (1 if setup_replica == SURVIVOR else 0)
        counts = wait_for(f"Prometheus to count the survivor's {expected} answers",
                          lambda: (lambda c: c if c.get(survivor.instance) == expected else None)(metric_sum(prometheus, answered)),
                          timeout=20)
        note("warble_http_requests_total (audio routes, 200) last seen: " +
             ", ".join(f"{r.name} {counts.get(r.instance, 0):.0f}" for r in replicas))
        check(all(counts.get(r.instance, 0) >= 2 for r in replicas),
              "Prometheus's request counters grew on each replica before the kill and the drain")
        check(True, f"Prometheus's counter of {SURVIVOR} equals the answers the clients got from it ({expected})")

        loaded = {r.name: r.memory_kib() for r in replicas if r.process.poll() is None}
        for name in REPLICAS:
            if name in loaded:
                note(f"memory {name}: idle VmRSS {idle[name].get('VmRSS', 0) // 1024} MiB; after the load VmRSS "
                     f"{loaded[name].get('VmRSS', 0) // 1024} MiB, peak VmHWM {loaded[name].get('VmHWM', 0) // 1024} MiB")
    except Exception as error:  # noqa: BLE001 - reported as a failed check, then everything is cleaned up
        check(False, f"the test ran to its end: {error}")
    finally:
        if load:
            load.stopping.set()
        for process in [r.process for r in replicas] + [p.process for p in (haproxy, prometheus) if p]:
            if process.poll() is None:
                process.kill()
                process.wait()
        net.down()
        if failures:
            for path in sorted(os.listdir(work)):
                if path.endswith(".log"):
                    print(f"--- {path} (last lines) ---")
                    with open(os.path.join(work, path), errors="replace") as f:
                        print("".join(f.readlines()[-15:]), end="")
        if args.keep:
            print(f"     the work folder is kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    print(f"     wall time: {time.monotonic() - started:.0f} s")
    print(f"multihost: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
