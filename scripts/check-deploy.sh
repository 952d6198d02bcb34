#!/usr/bin/env bash
# Checks the deployment files in deploy/ (see Docs/Deployment.md): the systemd unit with `systemd-analyze verify`
# (its ExecStart pointed at the warble this checkout built: the unit names /usr/local/bin/warble), and the
# Containerfile and Kubernetes manifests against the server's routes and ports (tools/deploy/check_deploy.py).
# The image itself is built by hand (buildah/podman, the guide's command): it needs a Swift toolchain and a base image.
#
#   scripts/check-deploy.sh   (the test build's warble, or $WARBLE_BIN when set)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

"$warble_root/scripts/python-env.sh" >/dev/null
command -v systemd-analyze >/dev/null || die "systemd-analyze is needed (apt-get install systemd)"
if [[ -n "${WARBLE_BIN:-}" && -x "$WARBLE_BIN" ]]; then warble="$WARBLE_BIN"; else warble="$(test_bin)/warble"; fi

unit_dir="$(mktemp -d)"
trap 'rm -rf "$unit_dir"' EXIT
sed "s|/usr/local/bin/warble|$warble|g" deploy/systemd/warble.service > "$unit_dir/warble.service"
unit_failed=0
if systemd-analyze verify --man=no "$unit_dir/warble.service" > "$unit_dir/verify.log" 2>&1 && [[ ! -s "$unit_dir/verify.log" ]]; then
    echo "ok   systemd-analyze verify deploy/systemd/warble.service: no error, no warning"
else
    echo "FAIL systemd-analyze verify deploy/systemd/warble.service:"; cat "$unit_dir/verify.log"; unit_failed=1
fi
report="$unit_dir/report"
.venv/bin/python tools/deploy/check_deploy.py | tee "$report" || true
read -r passed failed < <(sed -n 's/^check_deploy: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$report") || true
[[ -n "${passed:-}" ]] || { passed=0; failed=1; }
# The checker itself: a readiness probe on a route the server does not have, and a Service on another port, fail.
broken="$unit_dir/broken"
mkdir -p "$broken/Sources/WarbleServer" && cp -r deploy "$broken/" && cp Sources/WarbleServer/SpeechServer.swift "$broken/Sources/WarbleServer/"
sed -i 's|path: /health/ready|path: /healthz|' "$broken/deploy/kubernetes/deployment.yaml"
sed -i 's|targetPort: http|targetPort: 9000|' "$broken/deploy/kubernetes/service.yaml"
if ! .venv/bin/python tools/deploy/check_deploy.py --root "$broken" > "$unit_dir/broken.log" \
    && grep -q '^FAIL readinessProbe: GET /healthz' "$unit_dir/broken.log" && grep -q "^FAIL the Service targets" "$unit_dir/broken.log"; then
    echo "ok   check_deploy.py fails a probe on a route the server lacks and a Service on another port"; passed=$((passed + 1))
else
    echo "FAIL check_deploy.py let a broken manifest through:"; cat "$unit_dir/broken.log"; failed=$((failed + 1))
fi
echo "deploy: $((passed + 1 - unit_failed)) passed, $((failed + unit_failed)) failed"
((failed + unit_failed == 0))
