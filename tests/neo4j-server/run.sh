#!/usr/bin/env bash
# Start (or stop) the throw-away Neo4j 5.26 Community server used by the tests and CI.
#
#   tests/neo4j-server/run.sh [PORT]   build the launcher if needed, start it in the background,
#                                      wait for Bolt, print its URI (neo4j://127.0.0.1:PORT)
#   tests/neo4j-server/run.sh stop     stop the server this script started (SIGTERM, clean shutdown)
#
# PORT defaults to $NEO4J_TEST_PORT or 7687; 0 picks a free port. The log and pid file live in
# target/ (neo4j.log, neo4j.pid). Typical CI use:  export NEO4J_URI="$(tests/neo4j-server/run.sh 0)"
# For benchmarks at scale, give it memory (flags after jvm.options win):
#   NEO4J_TEST_JAVA_OPTS="-Xms4g -Xmx4g" NEO4J_TEST_PAGE_CACHE=6g tests/neo4j-server/run.sh 0
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/neo4j-test-server.jar"
log="$here/target/neo4j.log"
pidfile="$here/target/neo4j.pid"
ready_timeout="${NEO4J_READY_TIMEOUT:-180}"

stop_server() {
  [[ -f "$pidfile" ]] || { echo "run.sh: no $pidfile, nothing to stop" >&2; return 0; }
  local pid
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    # Neo4j checkpoints on shutdown; give it time before giving up on it.
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && { echo "run.sh: Neo4j (pid $pid) ignored SIGTERM, killing" >&2; kill -KILL "$pid"; }
  fi
  rm -f "$pidfile"
}

build_if_needed() {
  # Rebuild when the jar is missing or older than the pom or any source file.
  if [[ -f "$jar" && -z "$(find "$here/pom.xml" "$here/src" -newer "$jar" -type f -print -quit)" ]]; then
    return 0
  fi
  echo "run.sh: building the Neo4j launcher with Maven" >&2
  # Offline first: after one download ~/.m2 holds every artifact and the build needs no network.
  (cd "$here" && { mvn -o -q -B package -DskipTests >&2 || mvn -q -B package -DskipTests >&2; })
}

if [[ "${1:-}" == "stop" ]]; then
  stop_server
  exit 0
fi

port="${1:-${NEO4J_TEST_PORT:-7687}}"
build_if_needed
mkdir -p "$here/target"
if [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
  echo "run.sh: a launcher is already running (pid $(cat "$pidfile")); run '$0 stop' first" >&2
  exit 1
fi

mapfile -t jvm_flags < <(grep -v '^\s*\(#\|$\)' "$here/jvm.options")
read -r -a extra_flags <<<"${NEO4J_TEST_JAVA_OPTS:-}"
jvm_flags+=("${extra_flags[@]}")
# Empty the log first: the background redirection may truncate it only after the wait loop has
# read a stale ready line from the previous run.
: >"$log"
java "${jvm_flags[@]}" -jar "$jar" "$port" >>"$log" 2>&1 &
echo $! >"$pidfile"

deadline=$((SECONDS + ready_timeout))
while (( SECONDS < deadline )); do
  if line="$(grep -m1 '^NEO4J_READY ' "$log")"; then
    uri="$(awk '{print $2}' <<<"$line")"
    echo "neo4j://${uri#bolt://}"
    exit 0
  fi
  if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "run.sh: the Neo4j launcher exited before it was ready; its log ($log):" >&2
    tail -n 40 "$log" >&2
    rm -f "$pidfile"
    exit 1
  fi
  sleep 0.5
done
echo "run.sh: Neo4j was not ready after ${ready_timeout}s; its log ($log):" >&2
tail -n 40 "$log" >&2
stop_server
exit 1
