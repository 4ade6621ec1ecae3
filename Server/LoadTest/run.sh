#!/usr/bin/env bash
# Load test of inkrec-serve on loopback (Server/README.md): wrk with 32 connections sends the UNIPEN
# word inks of Benchmarks/ (prepare_inks.py) to POST /v1/recognize for DURATION seconds (default 240,
# past 100,000 requests on the development machine) while the server's RSS is sampled every 5 s;
# then the same inks, repeated, through `inkrec recognize --batch` for comparison.
#   Server/LoadTest/run.sh [DURATION]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DURATION="${1:-240}"
OUT="$ROOT/Server/.build/loadtest"
mkdir -p "$OUT"
INKS="$ROOT/Benchmarks/.build/inks/word8.jsonl"
[ -f "$INKS" ] || (cd "$ROOT/Benchmarks" && python3 prepare_inks.py)
swift build -c release --package-path "$ROOT/Server" --product inkrec-serve >/dev/null
swift build -c release --package-path "$ROOT" --product inkrec >/dev/null
PORT=18080
"$ROOT/Server/.build/release/inkrec-serve" --port $PORT --language en-US --storage "$OUT/store" 2>"$OUT/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
: > "$OUT/rss.txt"
( while kill -0 $SERVER 2>/dev/null; do echo "$(date +%s) $(ps -o rss= -p $SERVER)" >> "$OUT/rss.txt"; sleep 5; done ) &
SAMPLER=$!
wrk -t 2 -c 32 -d "${DURATION}s" --timeout 10s -s "$ROOT/Server/LoadTest/load.lua" "http://127.0.0.1:$PORT" -- "$INKS" | tee "$OUT/wrk.txt"
kill $SAMPLER 2>/dev/null || true
echo "server RSS (KB), first and last samples and the largest:"
awk 'NR==1{f=$2} {l=$2; if ($2>m) m=$2} END {print "  first " f ", last " l ", max " m}' "$OUT/rss.txt"
kill $SERVER; wait $SERVER 2>/dev/null || true
# The same inks through the CLI's batch mode, 100 times over.
for i in $(seq 100); do cat "$INKS"; done > "$OUT/batch.jsonl"
N=$(wc -l < "$OUT/batch.jsonl")
START=$(date +%s.%N)
"$ROOT/.build/release/inkrec" recognize --model-directory "$ROOT/Models/en-US" --batch "$OUT/batch.jsonl" --max-results 5 > "$OUT/batch.out"
END=$(date +%s.%N)
python3 -c "import sys; n, s, e = int('$N'), float('$START'), float('$END'); print(f'inkrec recognize --batch: {n} inks in {e - s:.1f} s = {n / (e - s):.1f} inks/s (model load included)')"
