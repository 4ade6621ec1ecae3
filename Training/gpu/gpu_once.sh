#!/usr/bin/env bash
# One training call on a lent GPU machine (15 minutes of device time a session, at most 10 a call):
#
#   Training/gpu/gpu_once.sh cjk SECONDS [cjk train options]    # needs Training/work/cjk (cjk data)
#   Training/gpu/gpu_once.sh latin SECONDS [latin train options]      # needs Training/work/latn-gpu (latin data)
#   Training/gpu/gpu_once.sh sweep SECONDS [latin train sweep options] # the same, several sizes on the same batches
#   Training/gpu/gpu_once.sh scripts SECONDS "NAME:CHARSET:LANGS[:INIT] ..." [latin train options]
#       # script networks (latin train --scripts), all at once, the drawing processes shared among them,
#       # each from its INIT weights (--init-from) where given; needs Training/work/scripts-gpu
#       # (latin data --languages '' --scripts LANGS); $OUT/NAME/…
#
# Installs the carried wheels (.whl/: the Hershey fonts), trains in the foreground with --deadline SECONDS
# (the run ends, validated and saved, by then) and writes ema16.pt, live16.pt (float16), history.json and
# the log into $OUT at every checkpoint (sweep: <size>/ema16.pt), so that a call cut short still brings
# weights back. The run lives in /tmp/<trainer>-run on that machine and is lost with it. Carry
# ["Training/work/cjk", ".whl"] or ["Training/work/latn-gpu", ".whl"], and move Models/ out of the
# checkout first (the tree travels only up to 64 MiB). TRAIN_DEVICE=cpu tries the same call here (with
# OUT set to a folder).
set -euo pipefail
cd "$(dirname "$0")/../.."
trainer="${1:?cjk, latin, sweep or scripts}"; seconds="${2:?seconds}"; shift 2
: "${OUT:?OUT must name the folder that comes back}"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
workers=$(( $(nproc) - 2 )); [ "$workers" -ge 1 ] || workers=1
run="/tmp/$trainer-run"
mkdir -p "$run"
if [ "$trainer" = scripts ]; then
  runs=(${1:?NAME:CHARSET:LANGS ...}); shift
  workers=$(( workers / ${#runs[@]} )); [ "$workers" -ge 1 ] || workers=1
  data=Training/work/scripts-gpu
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || true
  (while sleep 60; do nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader 2>/dev/null || true; done) &
  monitor=$!
  pids=()
  for spec in "${runs[@]}"; do
    IFS=: read -r name charset langs init <<< "$spec"
    own=(); [ -n "$init" ] && own=(--init-from "$init")
    mkdir -p "$run/$name" "$OUT/$name"
    PYTHONPATH=/tmp/site:Training PYTHONUNBUFFERED=1 timeout $(( seconds + 20 )) python3 -m inkrec_training latin train \
      network --run "$run/$name" --charset "$charset" --scripts "$langs" --data "$data" \
      --wordlists "$data/wordlists.json.xz" --minutes 60 --deadline "$seconds" --device "${TRAIN_DEVICE:-cuda}" \
      --workers "$workers" --out16 "$OUT/$name" --checkpoint-minutes 2 "$@" "${own[@]}" > "$OUT/$name/train.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
  kill "$monitor" 2>/dev/null || true
  for spec in "${runs[@]}"; do echo "== ${spec%%:*}"; tail -n 8 "$OUT/${spec%%:*}/train.log"; done
  ls -laR "$OUT"
  exit 0
fi
case "$trainer" in
  cjk)
    cmd=(python3 -m inkrec_training cjk train --run "$run" --hidden 192) ;;
  latin|sweep)
    data=Training/work/latn-gpu
    topic=network; [ "$trainer" = sweep ] && topic=sweep
    cmd=(python3 -m inkrec_training latin train "$topic" --run "$run" --charset latin --languages all --data "$data"
         --wordlists "$data/wordlists.json.xz" --boxes "$data/boxes.pkl.xz") ;;
  *)
    sed -n 2,14p "$0"; exit 64 ;;
esac
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || true
(while sleep 60; do nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader 2>/dev/null || true; done) &
monitor=$!
PYTHONPATH=/tmp/site:Training PYTHONUNBUFFERED=1 timeout $(( seconds + 20 )) "${cmd[@]}" --minutes 60 --deadline "$seconds" \
  --device "${TRAIN_DEVICE:-cuda}" --workers "$workers" --out16 "$OUT" --checkpoint-minutes 2 "$@" 2>&1 \
  | tee "$OUT/train.log" || true
kill "$monitor" 2>/dev/null || true
ls -la "$OUT"
