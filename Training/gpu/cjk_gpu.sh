#!/usr/bin/env bash
# Training the CJK network on a lent GPU machine (Docs/cjk.md), in three device calls that keep one lease:
#
#   Training/gpu/cjk_gpu.sh start MINUTES [cjk train options]   # detached; prints the first steps
#   Training/gpu/cjk_gpu.sh wait SECONDS                            # keeps the lease busy, prints progress
#   Training/gpu/cjk_gpu.sh fetch                                   # waits for the end; float16 weights into $OUT
#
# or in one device call (a lease of 15 minutes holds one call of at most 10):
#
#   Training/gpu/cjk_gpu.sh once SECONDS [cjk train options]     # Training/gpu/gpu_once.sh cjk: trains in the foreground,
#                                                               # all done by SECONDS; weights, history and log into
#                                                               # $OUT at each checkpoint
#
# The machine needs Training/work/cjk (cjk data, run here) and the Hershey wheel in .whl/
# (both carried: `carry: ["Training/work/cjk", ".whl"]`). The run lives in /tmp/cjk-run on that machine and
# is lost with it: `fetch` writes ema16.pt / live16.pt (float16, about 14 MB each), history.json and the log
# to $OUT; `cjk export --checkpoint ema16.pt` reads the first.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=/tmp/cjk-run
case "${1:-}" in
  start)
    minutes="${2:?minutes}"; shift 2
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
    mkdir -p "$run"
    PYTHONPATH=/tmp/site:Training PYTHONUNBUFFERED=1 setsid nohup python3 -m inkrec_training cjk train --run "$run" \
      --minutes "$minutes" --device cuda --workers "$(( $(nproc) - 2 ))" --hidden 192 --out16 "$run/out16" "$@" \
      > "$run/log" 2>&1 < /dev/null &
    sleep 120
    tail -20 "$run/log"
    nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader
    ;;
  once)
    exec Training/gpu/gpu_once.sh cjk "${@:2}" ;;
  wait)
    sleep "${2:?seconds}"
    grep "==" "$run/log" | tail -5 || true
    tail -2 "$run/log"
    ;;
  fetch)
    for _ in $(seq 1 90); do [ -f "$run/history.json" ] && break; sleep 5; done
    cp "$run"/out16/* "${OUT:?}/"  # cjk train --out16: ema16.pt, live16.pt, history.json
    cp "$run/log" "$OUT/train.log"
    ls -la "$OUT"
    ;;
  *)
    sed -n 2,12p "$0"; exit 64 ;;
esac
