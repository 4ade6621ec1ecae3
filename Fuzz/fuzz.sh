#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of DigitalInk (see Fuzz/README.md).
#
#   Fuzz/fuzz.sh build                         build every target (debug, ASan + libFuzzer)
#   Fuzz/fuzz.sh run TARGET [SECONDS] [ARGS]   fuzz one target (default FUZZ_SECONDS or 60 s)
#   Fuzz/fuzz.sh all [SECONDS]                 build, then fuzz every target in turn
#   Fuzz/fuzz.sh repro TARGET FILE...          run the target once on each file (a crasher)
#   Fuzz/fuzz.sh list                          the targets and their -max_len
#
# Findings (crash-*, timeout-*, oom-*, leak-*) go to Fuzz/Artifacts/TARGET/; the growing corpus to
# Fuzz/.work/corpus/TARGET (the committed seeds in Fuzz/Corpus/TARGET are only read); logs to
# Fuzz/.work/logs/TARGET.log. Both folders are ignored by git.
set -uo pipefail

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$FUZZ_DIR")"
BUILD="$FUZZ_DIR/.build"
BIN="$BUILD/debug"

# Target, -max_len[, -rss_limit_mb[, fork]]. Inputs larger than the real files are not needed to reach
# the code paths. FoundationXML leaks a little on every XML error (see README.md), about 1 to 3 KB an
# execution, so the targets that reach the InkML reader (fuzz-json and fuzz-recognize sniff formats)
# run in libFuzzer's fork mode (-fork=1): a child process runs a batch of inputs and exits, so the
# leak never adds up to the RSS limit; a single input is still limited by -malloc_limit_mb.
TARGETS=(
    "fuzz-json 4096 2048 fork"
    "fuzz-jsonl 8192"
    "fuzz-inkml 4096 4096 fork"
    "fuzz-strokearrays 2048"
    "fuzz-safetensors 4096"
    "fuzz-lm 4096"
    "fuzz-manifest 4096"
    "fuzz-config 4096"
    "fuzz-profile 4096"
    "fuzz-recognize 8192 2048 fork"
)
RSS_LIMIT_MB="${FUZZ_RSS_LIMIT_MB:-2048}"
TIMEOUT_S="${FUZZ_TIMEOUT:-10}"

# LeakSanitizer is off: the Swift runtime and Foundation keep caches that it reports, and it cannot
# run under ptrace. OpenBLAS gets one thread (the recognizer's matrix products).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
# Swift's own crash backtracer fights ASan (it reads freed memory and ASan reports that instead of the
# crash); libFuzzer's handler prints the stack of a Swift trap (SIGILL/SIGTRAP) itself.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# Crashes that are known and being fixed are skipped by the targets (Sources/FuzzMain/KnownIssues.swift);
# FUZZ_SKIP_KNOWN=0 reports them.
export FUZZ_SKIP_KNOWN="${FUZZ_SKIP_KNOWN:-1}"

max_len() {
    for entry in "${TARGETS[@]}"; do
        set -- $entry
        [[ $1 == "$TARGET" ]] && { echo "$2"; return 0; }
    done
    echo "unknown target $TARGET (Fuzz/fuzz.sh list)" >&2
    return 1
}

fork_args() {
    for entry in "${TARGETS[@]}"; do
        set -- $entry
        [[ $1 == "$TARGET" && ${4:-} == fork ]] && { echo "-fork=1 -ignore_crashes=0"; return 0; }
    done
    return 0
}

rss_limit() {
    for entry in "${TARGETS[@]}"; do
        set -- $entry
        [[ $1 == "$TARGET" ]] && { echo "${3:-$RSS_LIMIT_MB}"; return 0; }
    done
    echo "unknown target $TARGET (Fuzz/fuzz.sh list)" >&2
    return 1
}

build() {
    swift build -j "${FUZZ_BUILD_JOBS:-1}" -c debug --package-path "$FUZZ_DIR" --scratch-path "$BUILD" \
        -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -v 'ld.gold: warning: Cannot export local symbol'
    return "${PIPESTATUS[0]}"
}

# run TARGET SECONDS [extra libFuzzer arguments]; returns 0 when nothing was found.
run() {
    TARGET="$1"; local seconds="$2"; shift 2
    local len; len="$(max_len)" || return 2
    local rss; rss="$(rss_limit)"
    local fork; fork="$(fork_args)"
    local corpus="$FUZZ_DIR/.work/corpus/$TARGET" artifacts="$FUZZ_DIR/Artifacts/$TARGET"
    local log="$FUZZ_DIR/.work/logs/$TARGET.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    echo "== $TARGET: ${seconds}s, -max_len=$len, -rss_limit_mb=$rss ${fork}, log $log"
    "$BIN/$TARGET" "$corpus" "$FUZZ_DIR/Corpus/$TARGET" \
        -max_total_time="$seconds" -max_len="$len" -rss_limit_mb="$rss" -malloc_limit_mb="$RSS_LIMIT_MB" -timeout="$TIMEOUT_S" \
        -print_final_stats=1 -artifact_prefix="$artifacts/" $fork "$@" >"$log" 2>&1
    local status=$?
    grep -E '^#[0-9]+[[:space:]]+DONE|^INFO: exiting|oom/timeout/crash: [0-9]+/[0-9]+/[1-9]|^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)|^==[0-9]+==ERROR|^SUMMARY|Fatal error|^artifact_prefix|Test unit written' "$log" | sed 's/^/   /'
    if [[ $status -ne 0 ]]; then echo "   $TARGET: FINDING (exit $status), see $log"; fi
    return $status
}

command="${1:-all}"; shift || true
case "$command" in
    build) build ;;
    list) for entry in "${TARGETS[@]}"; do echo "$entry"; done ;;
    run)
        [[ $# -ge 1 ]] || { echo "usage: $0 run TARGET [SECONDS] [libFuzzer args]" >&2; exit 2; }
        target="$1"; seconds="${2:-${FUZZ_SECONDS:-60}}"; shift; [[ $# -ge 1 ]] && shift
        run "$target" "$seconds" "$@" ;;
    all)
        seconds="${1:-${FUZZ_SECONDS:-60}}"
        build || exit 1
        failed=()
        for entry in "${TARGETS[@]}"; do
            set -- $entry
            run "$1" "$seconds" || failed+=("$1")
        done
        if [[ ${#failed[@]} -gt 0 ]]; then echo "findings in: ${failed[*]} (Fuzz/Artifacts/)"; exit 1; fi
        echo "no findings" ;;
    repro)
        [[ $# -ge 2 ]] || { echo "usage: $0 repro TARGET FILE..." >&2; exit 2; }
        TARGET="$1"; shift
        len="$(max_len)" || exit 2
        "$BIN/$TARGET" -rss_limit_mb="$RSS_LIMIT_MB" -timeout="$TIMEOUT_S" "$@" ;;
    *) echo "usage: $0 build|list|run|all|repro (see the header)" >&2; exit 2 ;;
esac
