#!/usr/bin/env bash
# Builds the INKLM2 character LM of every Latin-script wordfreq language into Training/work/lm/<code>.bin
# (plus de-CH without ß, and en-unipen, en-US's: the English builder's text with the UNIPEN labels, order 7
# and 5.5 MB since en-US 2.0.0, Benchmarks/README.md "English: the language model"), one after the other, with timing; the measured figures go to Training/work/lm/report.jsonl (one JSON line each).
#
#   Training/build_language_lms.sh                 # all of them (about a minute each)
#   Training/build_language_lms.sh de fr pl        # only these
#   NICE=10 MAX_BYTES=1500000 Training/build_language_lms.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/work/lm"
mkdir -p "$out"
langs=("$@")
if [ ${#langs[@]} -eq 0 ]; then
  langs=(ca cs da de de-CH en en-unipen es fi fil fr hu id is it lt lv ms nb nl pl pt ro sh sk sl sv tr)
fi
report="$out/report.jsonl"
nice_level="${NICE:-5}"
max_bytes="${MAX_BYTES:-2000000}"
start=$(date +%s)
for code in "${langs[@]}"; do
  t0=$(date +%s)
  case "$code" in
    de-CH) args=(--language de --no-eszett) ;;
    en-unipen) args=(--format v2 --order 7) ;;
    *) args=(--language "$code") ;;
  esac
  budget="$max_bytes"; [ "$code" = en-unipen ] && budget="${EN_MAX_BYTES:-5500000}"
  nice -n "$nice_level" python3 "$here/build_lm.py" "${args[@]}" --max-bytes "$budget" \
    --out "$out/$code.bin" --report "$report" > "$out/$code.log" 2>&1 \
    || { echo "$code: FAILED (see $out/$code.log)"; continue; }
  printf '%-10s %9d bytes  %4ds\n' "$code" "$(stat -c %s "$out/$code.bin")" "$(( $(date +%s) - t0 ))"
done
echo "all done in $(( $(date +%s) - start ))s; figures in $report"
