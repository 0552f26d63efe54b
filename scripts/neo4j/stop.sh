#!/usr/bin/env bash
# Stop the Neo4j started by scripts/neo4j/start.sh (SIGTERM -> Neo4j's clean shutdown,
# SIGKILL after GRAPHMEM_NEO4J_STOP_TIMEOUT seconds, default 60). Idempotent.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STATE_DIR="${GRAPHMEM_NEO4J_DIR:-$ROOT/.neo4j}"
PID_FILE="$STATE_DIR/neo4j.pid"
TIMEOUT="${GRAPHMEM_NEO4J_STOP_TIMEOUT:-60}"

if [[ ! -f "$PID_FILE" ]]; then
    echo "not running (no $PID_FILE)"
    exit 0
fi
pid="$(cat "$PID_FILE")"
if ! kill -0 "$pid" 2>/dev/null \
    || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'Launcher.java'; then
    echo "not running (stale pid file, pid $pid)"
    rm -f "$PID_FILE"
    exit 0
fi

kill -TERM "$pid"
for ((i = 0; i < TIMEOUT * 5; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
done
if kill -0 "$pid" 2>/dev/null; then
    echo "neo4j (pid $pid) did not stop within ${TIMEOUT}s; sending SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
fi
rm -f "$PID_FILE"
echo "stopped (pid $pid)"
