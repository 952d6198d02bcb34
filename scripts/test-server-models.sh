#!/usr/bin/env bash
# End-to-end test of `warble serve`'s model routes (GET /v1/models/available, POST /v1/models/pull,
# DELETE /v1/models/{id}) against the Hub imitation: tools/server/e2e_models.py starts both servers.
# Needs the default voice (scripts/setup.sh) and the Hub imitation's tree (tools/hub/make_fixtures.py; made when missing).
#
#   scripts/test-server-models.sh [WARBLE]   (default: the test build's warble; scripts/test-server-e2e.sh runs it)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

hub_tree="Tests/Fixtures/generated/hub/tree"
[[ -d "$hub_tree" ]] || { "$warble_root/scripts/python-env.sh" >/dev/null; .venv/bin/python tools/hub/make_fixtures.py Tests/Fixtures/generated/hub >/dev/null; }
python3 tools/server/e2e_models.py --warble "${1:-$(test_bin)/warble}" --hub-root "$hub_tree"
