#!/usr/bin/env bash
# Regenerates every figure in Benchmarks/README.md, in one command (run it again after retraining):
#
#     Benchmarks/run.sh
#
# 1. picks the UNIPEN inks (prepare_inks.py; kept if already there),
# 2. builds the Benchmarks package in release mode,
# 3. runs the package-benchmark suite (swift package benchmark), exported as influx CSV,
# 4. measures the peak memory of one recognizer (inkrec-bench-memory),
# 5. runs side_by_side.py (engine vs ONNX Runtime vs PyTorch, and the floor),
# 6. writes the figures into README.md (report.py).
# Everything runs single-threaded BLAS and under `nice` (BENCH_NICE, default 10). Results and logs:
# Benchmarks/.build/results/.
set -euo pipefail
cd "$(dirname "$0")"
export OPENBLAS_NUM_THREADS=1 DIGITALINK_BLAS_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
NICE=(nice -n "${BENCH_NICE:-10}")
PY=${PYTHON:-python3}
out=.build/results
rm -rf "$out"
mkdir -p "$out"

load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
load_before=$(load)

"${NICE[@]}" "$PY" prepare_inks.py
"${NICE[@]}" swift build -c release 2>&1 | tail -1
"${NICE[@]}" swift package --allow-writing-to-package-directory benchmark \
    --format influx --path "$out" --no-progress 2>&1 | tee "$out/benchmark.log" | grep -v '^Writing' || true
test -s "$out/Current_run.influx.csv" || { echo "package-benchmark wrote no results (see $out/benchmark.log)" >&2; exit 1; }
"${NICE[@]}" .build/release/inkrec-bench-memory ../Samples/line.json .build/inks/line40.jsonl > "$out/memory.json"
"${NICE[@]}" "$PY" side_by_side.py --json "$out/side_by_side.json" 2>&1 | grep -v -i warning | tee "$out/side_by_side.txt"

"$PY" - "$out/machine.json" "$load_before" "$(load)" <<'PYEOF'
import json, os, platform, subprocess, sys, datetime
def sh(*c):
    try:
        return subprocess.run(c, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"
cpu = next((l.split(":", 1)[1].strip() for l in sh("lscpu").splitlines() if l.startswith("Model name:")), platform.processor())
json.dump({"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.platform(),
           "swift": sh("swift", "--version").splitlines()[0] if sh("swift", "--version") else "?",
           "commit": sh("git", "rev-parse", "--short", "HEAD") + (" + local changes" if sh("git", "status", "--porcelain") else ""),
           "date": datetime.date.today().isoformat(), "loadBefore": sys.argv[2], "loadAfter": sys.argv[3]},
          open(sys.argv[1], "w"), indent=1)
PYEOF
"$PY" report.py --results "$out"
