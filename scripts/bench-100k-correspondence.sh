#!/usr/bin/env bash
# Start-up time and memory of a server binary on a database (issue 40's measure with
# 100,000 open correspondence games, docs/performance.md). Not a test.
#
#   damka --database-url sqlite:///tmp/big100k/damka.db   # once, to make the schema; stop it
#   cargo bench -p damka-server --bench seed -- --database-url sqlite:///tmp/big100k/damka.db \
#       --games 0 --guests 20000 --idle 0 --heavy 0 --running 100000
#   cp /tmp/big100k/damka.db /tmp/big100k/a.db
#   scripts/bench-100k-correspondence.sh target/release/damka /tmp/big100k/a.db 8112 label
#
# Prints the seconds from the start until /readyz answers 200, the resident memory 10 s
# later (kB), and the time of GET /api/rooms/russian; then stops the server (SIGINT).
set -u
BIN=$1; DB=$2; PORT=$3; LABEL=$4
STATIC="$(cd "$(dirname "$0")/.." && pwd)/static"
start=$(date +%s.%N)
"$BIN" --bind "127.0.0.1:$PORT" --database-url "sqlite://$DB" --static-dir "$STATIC" > "/tmp/bench-$LABEL.log" 2>&1 &
PID=$!
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz"; do sleep 0.1; done
ready=$(date +%s.%N)
sleep 10
rss=$(awk '/VmRSS/{print $2}' "/proc/$PID/status")
rt=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$PORT/api/rooms/russian")
echo "$LABEL start_to_ready_s=$(echo "$ready - $start" | bc) rss_kb_after_10s=$rss rooms_russian_s=$rt"
kill -INT "$PID"; wait "$PID" 2>/dev/null
