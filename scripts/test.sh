#!/usr/bin/env bash
# The one test command: installs what the tests need, starts a real Neo4j, runs pytest.
#   scripts/test.sh [pytest args...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

# 1. Python dependencies, in a project virtualenv.
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e ".[all]"

# 2. Chromium for the Neo4j Browser end-to-end test (Debian package; root on CI).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation fonts-dejavu-core >/dev/null
  else
    echo "warning: chromium missing and not root; the Browser test will fail" >&2
  fi
fi

# 3. A real Neo4j 5.26 (Maven Central jars, Java 17), stopped again on exit.
bash scripts/neo4j/start.sh
trap 'bash scripts/neo4j/stop.sh || true' EXIT
export GRAPHMEM_NEO4J_URI="${GRAPHMEM_NEO4J_URI:-bolt://127.0.0.1:${GRAPHMEM_NEO4J_BOLT_PORT:-7687}}"
export GRAPHMEM_NEO4J_HTTP="${GRAPHMEM_NEO4J_HTTP:-http://127.0.0.1:${GRAPHMEM_NEO4J_HTTP_PORT:-7474}}"
# Auth is on: the launcher keeps the neo4j user's password in its state dir.
export GRAPHMEM_NEO4J_USER="${GRAPHMEM_NEO4J_USER:-neo4j}"
GRAPHMEM_NEO4J_PASSWORD="${GRAPHMEM_NEO4J_PASSWORD:-$(cat "${GRAPHMEM_NEO4J_DIR:-$ROOT/.neo4j}/password")}"
export GRAPHMEM_NEO4J_PASSWORD

# 4. Lint, then the suite.
.venv/bin/ruff check graphmem tests bench scripts
.venv/bin/python -m pytest "$@"
