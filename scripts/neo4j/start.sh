#!/usr/bin/env bash
# Start a local Neo4j 5.26 Community (Bolt + HTTP + Neo4j Browser) without Docker.
#
#   scripts/neo4j/start.sh            # start (or report that it already runs)
#   scripts/neo4j/start.sh --reset    # wipe .neo4j/home first (must be stopped)
#
# Idempotent. First use resolves the jars with Maven (cached in ~/.m2) and writes
# scripts/neo4j/target/classpath.txt. The server runs in the background; state lives in
# <repo>/.neo4j/ (pid file neo4j.pid, log neo4j.log, database under home/, and
# `password`, mode 0600: the password of user neo4j, generated on first start).
#
# Environment (all optional):
#   GRAPHMEM_NEO4J_BOLT_PORT      7687
#   GRAPHMEM_NEO4J_HTTP_PORT      7474
#   GRAPHMEM_NEO4J_HEAP           1g     JVM -Xmx
#   GRAPHMEM_NEO4J_PAGECACHE      256m   server.memory.pagecache.size
#   GRAPHMEM_NEO4J_DIR            <repo>/.neo4j
#   GRAPHMEM_NEO4J_START_TIMEOUT  180    seconds to wait for READY
#   GRAPHMEM_NEO4J_PASSWORD       -      use (and keep in the password file) this password
#   JAVA_HOME                     Java 17 or 21 (Neo4j 5.26 supports both)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STATE_DIR="${GRAPHMEM_NEO4J_DIR:-$ROOT/.neo4j}"
HOME_DIR="$STATE_DIR/home"
PID_FILE="$STATE_DIR/neo4j.pid"
PASSWORD_FILE="$STATE_DIR/password"
LOG_FILE="$STATE_DIR/neo4j.log"
CP_FILE="$SCRIPT_DIR/target/classpath.txt"
BOLT_PORT="${GRAPHMEM_NEO4J_BOLT_PORT:-7687}"
HTTP_PORT="${GRAPHMEM_NEO4J_HTTP_PORT:-7474}"
HEAP="${GRAPHMEM_NEO4J_HEAP:-1g}"
TIMEOUT="${GRAPHMEM_NEO4J_START_TIMEOUT:-180}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
export GRAPHMEM_NEO4J_BOLT_PORT="$BOLT_PORT" GRAPHMEM_NEO4J_HTTP_PORT="$HTTP_PORT"
export GRAPHMEM_NEO4J_PASSWORD_FILE="$PASSWORD_FILE"

ready_line="READY bolt://127.0.0.1:$BOLT_PORT http://127.0.0.1:$HTTP_PORT"

is_ours() {  # is $1 a live process running our Launcher?
    [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null \
        && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q 'Launcher.java'
}

port_busy() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

mkdir -p "$STATE_DIR"

if [[ -f "$PID_FILE" ]]; then
    pid="$(cat "$PID_FILE")"
    if is_ours "$pid"; then
        if [[ "${1:-}" == "--reset" ]]; then
            echo "neo4j is running (pid $pid); run scripts/neo4j/stop.sh before --reset" >&2
            exit 1
        fi
        if grep -qF "$ready_line" "$LOG_FILE" 2>/dev/null; then
            echo "already running (pid $pid)"
            if [[ -n "${GRAPHMEM_NEO4J_PASSWORD:-}" && -f "$PASSWORD_FILE" ]] \
                && [[ "$GRAPHMEM_NEO4J_PASSWORD" != "$(cat "$PASSWORD_FILE")" ]]; then
                echo "warning: GRAPHMEM_NEO4J_PASSWORD is not the running server's password" \
                    "($PASSWORD_FILE); it takes effect on the next start" >&2
            fi
            echo "$ready_line"
            exit 0
        fi
        echo "neo4j (pid $pid) is starting or on other ports; see $LOG_FILE" >&2
        exit 1
    fi
    rm -f "$PID_FILE"  # stale
fi

if [[ "${1:-}" == "--reset" ]]; then
    rm -rf "$HOME_DIR"
    echo "wiped $HOME_DIR"
fi

for port in "$BOLT_PORT" "$HTTP_PORT"; do
    if port_busy "$port"; then
        echo "port 127.0.0.1:$port is already in use by another process" >&2
        exit 1
    fi
done

# Classpath: (re)build when missing, older than pom.xml, or a jar vanished from ~/.m2.
need_cp=0
if [[ ! -s "$CP_FILE" || "$SCRIPT_DIR/pom.xml" -nt "$CP_FILE" ]]; then
    need_cp=1
else
    IFS=: read -r -a jars <"$CP_FILE" || true  # file has no trailing newline
    for jar in "${jars[@]}"; do [[ -f "$jar" ]] || { need_cp=1; break; }; done
fi
if [[ "$need_cp" == 1 ]]; then
    echo "resolving Neo4j jars with Maven (first run downloads ~190 MB into ~/.m2) ..."
    mkdir -p "$SCRIPT_DIR/target"
    if ! mvn -B -Dstyle.color=never -f "$SCRIPT_DIR/pom.xml" dependency:build-classpath \
        -Dmdep.outputFile="$CP_FILE.tmp" -Dmdep.includeScope=runtime >"$STATE_DIR/mvn.log" 2>&1; then
        echo "maven failed; last lines of $STATE_DIR/mvn.log:" >&2
        tail -n 40 "$STATE_DIR/mvn.log" >&2
        exit 1
    fi
    mv "$CP_FILE.tmp" "$CP_FILE"
fi

[[ -f "$LOG_FILE" ]] && mv -f "$LOG_FILE" "$LOG_FILE.prev"
: >"$LOG_FILE"
start_ts=$(date +%s.%N)

# stdin/stdout/stderr are detached so callers that capture our output do not hang.
nohup "$JAVA" \
    -Xms256m -Xmx"$HEAP" \
    -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow -XX:+DisableExplicitGC \
    --add-opens=java.base/java.nio=ALL-UNNAMED \
    --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
    -Dio.netty.tryReflectionSetAccessible=true \
    -Djdk.nio.maxCachedBufferSize=1024 \
    -Dlog4j2.disable.jmx=true \
    -cp "$(cat "$CP_FILE")" \
    "$SCRIPT_DIR/Launcher.java" "$HOME_DIR" \
    </dev/null >>"$LOG_FILE" 2>&1 &
pid=$!
echo "$pid" >"$PID_FILE"

deadline=$(( $(date +%s) + TIMEOUT ))
while :; do
    if grep -qF "$ready_line" "$LOG_FILE"; then
        secs=$(awk -v a="$start_ts" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
        echo "neo4j started in ${secs}s (pid $pid, log $LOG_FILE)"
        echo "$ready_line"
        echo "browser: http://127.0.0.1:$HTTP_PORT/browser/?dbms=neo4j://127.0.0.1:$BOLT_PORT&preselectAuthMethod=NATIVE"
        echo "user neo4j, password: cat $PASSWORD_FILE"
        exit 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "neo4j exited during start-up; last log lines:" >&2
        tail -n 40 "$LOG_FILE" >&2
        rm -f "$PID_FILE"
        exit 1
    fi
    if (( $(date +%s) >= deadline )); then
        echo "neo4j not ready after ${TIMEOUT}s; stopping it. Last log lines:" >&2
        tail -n 40 "$LOG_FILE" >&2
        "$SCRIPT_DIR/stop.sh" >&2 || true
        exit 1
    fi
    sleep 0.5
done
