"""Checks deploy/: the Kubernetes manifests against the server's real routes and the image, and the systemd unit.

There is no cluster here, so the manifests are read with a YAML parser and held to a schema of our own:
required fields, a Deployment whose selector matches its pods, probes on routes the server registers
(Sources/WarbleServer/SpeechServer.swift) and on a port the container declares, that port the one the
Containerfile's ENTRYPOINT serves, a Service that selects the pods and targets that port, memory requests no
larger than limits, and a grace period longer than the preStop pause plus --drain-seconds. The systemd unit
must let the drain finish (TimeoutStopSec above --drain-seconds) and stop with SIGTERM.
Prints one line per check and "check_deploy: N passed, N failed".
"""

import argparse
import configparser
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures: list[str] = []
passed = 0


def check(condition: bool, what: str) -> None:
    global passed
    print(("ok   " if condition else "FAIL ") + what)
    if condition:
        passed += 1
    else:
        failures.append(what)


def read(path: str) -> str:
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def quantity(value: str) -> float:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3}
    match = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(value))
    if not match or match.group(2) not in ("", *units):
        raise ValueError(f"not a quantity: {value!r}")
    return float(match.group(1)) * units.get(match.group(2), 1)


def drain_seconds(args: list[str]) -> float:
    for i, arg in enumerate(args):
        if arg == "--drain-seconds":
            return float(args[i + 1])
        if arg.startswith("--drain-seconds="):
            return float(arg.split("=", 1)[1])
    return 30.0  # warble serve's default


def main() -> int:
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=ROOT, help="the checkout whose deploy/ and sources are checked (default: this one)")
    ROOT = parser.parse_args().root
    routes = set(re.findall(r'on\(\.get, "(/[^"]*)"\)', read("Sources/WarbleServer/SpeechServer.swift")))
    check({"/health/live", "/health/ready"} <= routes, "the server registers /health/live and /health/ready")

    containerfile = read("deploy/Containerfile")
    entry = re.search(r"^ENTRYPOINT (\[.*\])$", containerfile, re.M)
    entrypoint = yaml.safe_load(entry.group(1)) if entry else []
    image_port = int(entrypoint[entrypoint.index("--port") + 1]) if "--port" in entrypoint else 8880
    check(entrypoint[:2] == ["/usr/local/bin/warble", "serve"] and "0.0.0.0" in entrypoint,
          f"the Containerfile runs warble serve on all addresses, port {image_port}")
    check(f"EXPOSE {image_port}" in containerfile and "STOPSIGNAL SIGTERM" in containerfile,
          "the Containerfile exposes that port and stops with SIGTERM")
    check(re.search(r"^FROM \$\{DEBIAN\}", containerfile, re.M) is not None and "debian:12" in containerfile,
          "the Containerfile builds from Debian 12")

    documents = []
    folder = os.path.join(ROOT, "deploy/kubernetes")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".yaml"):
            with open(os.path.join(folder, name)) as f:
                documents += [(name, d) for d in yaml.safe_load_all(f) if d]
    check(len(documents) >= 2 and all({"apiVersion", "kind", "metadata", "spec"} <= set(d) and d["metadata"].get("name")
                                      for _, d in documents), "every manifest has apiVersion, kind, metadata.name and spec")
    deployments = [d for _, d in documents if d["kind"] == "Deployment"]
    services = [d for _, d in documents if d["kind"] == "Service"]
    check(len(deployments) == 1 and len(services) == 1, "one Deployment and one Service")
    if len(deployments) != 1 or len(services) != 1:
        return finish()
    deployment, service = deployments[0], services[0]
    check(deployment["apiVersion"] == "apps/v1" and service["apiVersion"] == "v1", "the API versions are apps/v1 and v1")
    spec = deployment["spec"]
    pod_labels = spec["template"]["metadata"]["labels"]
    check(spec["selector"]["matchLabels"].items() <= pod_labels.items(), "the Deployment's selector matches its pods")
    check(spec.get("replicas", 1) >= 2, f"several replicas ({spec.get('replicas', 1)})")
    pod = spec["template"]["spec"]
    containers = pod["containers"]
    check(len(containers) == 1 and containers[0].get("image"), "one container with an image")
    container = containers[0]
    ports = {p.get("name"): p["containerPort"] for p in container.get("ports", [])}
    check(list(ports.values()) == [image_port], f"the container declares the image's port ({ports})")

    probes = {kind: container.get(kind) for kind in ("startupProbe", "readinessProbe", "livenessProbe")}
    check(all(probes.values()), "startup, readiness and liveness probes")
    for kind, probe in probes.items():
        get = (probe or {}).get("httpGet", {})
        port = ports.get(get.get("port")) if isinstance(get.get("port"), str) else get.get("port")
        check(get.get("path") in routes and port == image_port,
              f"{kind}: GET {get.get('path')} on port {get.get('port')} ({port}) is a route the server serves")
    check(probes["readinessProbe"]["httpGet"]["path"] == "/health/ready"
          and probes["livenessProbe"]["httpGet"]["path"] == "/health/live",
          "readiness asks /health/ready (503 while starting or draining), liveness /health/live")

    resources = container.get("resources", {})
    requests, limits = resources.get("requests", {}), resources.get("limits", {})
    check("memory" in requests and "memory" in limits and quantity(requests["memory"]) <= quantity(limits["memory"])
          and "cpu" in requests, f"memory requested and limited, request <= limit ({requests}, {limits})")

    args = container.get("args", [])
    pre_stop = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    pause = float(pre_stop[1]) if pre_stop[:1] == ["sleep"] else 0
    grace = pod.get("terminationGracePeriodSeconds", 30)
    check(grace > pause + drain_seconds(args),
          f"the grace period ({grace} s) covers the preStop pause ({pause:.0f} s) and the drain ({drain_seconds(args):.0f} s)")
    env = {e["name"]: e for e in container.get("env", [])}
    check("secretKeyRef" in env.get("WARBLE_API_KEY", {}).get("valueFrom", {}),
          "the API key (needed off loopback) comes from a Secret")

    sspec = service["spec"]
    check(sspec["selector"].items() <= pod_labels.items(), "the Service selects the Deployment's pods")
    check(all(ports.get(p["targetPort"]) == image_port if isinstance(p["targetPort"], str) else p["targetPort"] == image_port
              for p in sspec["ports"]), "the Service targets the container's port")

    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read_string(read("deploy/systemd/warble.service"))
    exec_start = unit["Service"]["ExecStart"].split()
    stop = unit["Service"].get("TimeoutStopSec", "90")
    check(exec_start[1:2] == ["serve"] and float(stop) > drain_seconds(exec_start)
          and unit["Service"].get("KillSignal", "SIGTERM") == "SIGTERM",
          f"the systemd unit stops with SIGTERM and waits {stop} s for a {drain_seconds(exec_start):.0f} s drain")
    return finish()


def finish() -> int:
    print(f"check_deploy: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
