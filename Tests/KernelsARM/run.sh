#!/usr/bin/env bash
# `make test-arm`: the NEON 8-bit kernels (Sources/_InkKernels/kernels_int8.c on aarch64) against the portable
# ones, cross-compiled for aarch64 and run under qemu-user: with GCC (aarch64-linux-gnu-gcc -O2) and, where a
# clang is on the PATH (the Swift toolchain ships one; Apple and the Swift build use clang), with clang -O2 and
# -O0; every C file of Sources/_InkKernels compiled for aarch64 (warnings are errors) and linked in. Installs
# nothing: `scripts/install-deps --arm` does. Without the cross compiler or qemu it says so and skips (exit 0),
# unless TEST_ARM_REQUIRED=1 (CI), where that fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
GCC=${AARCH64_GCC:-aarch64-linux-gnu-gcc}
QEMU=${QEMU_AARCH64:-qemu-aarch64}
SYSROOT=${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}
CLANG=${CLANG:-clang}
missing=()
command -v "$GCC" >/dev/null 2>&1 || missing+=("$GCC (apt: gcc-aarch64-linux-gnu)")
[ -f "$SYSROOT/include/stdio.h" ] || missing+=("$SYSROOT/include (apt: libc6-dev-arm64-cross)")
command -v "$QEMU" >/dev/null 2>&1 || missing+=("$QEMU (apt: qemu-user)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-arm: SKIPPED, missing: ${missing[*]}; run scripts/install-deps --arm" >&2
  [ "${TEST_ARM_REQUIRED:-0}" = 1 ] && exit 1
  exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
src=Sources/_InkKernels
warn=(-std=gnu11 -Wall -Wextra -Werror -I"$src/include")
# The test's reference cell must not be fused, whichever compiler builds it; GCC also fuses the kernels'
# separate multiplies and adds by default (GNU C's -ffp-contract=fast), clang does not (as the Swift build).
"$GCC" -O2 -ffp-contract=off "${warn[@]}" -c Tests/KernelsARM/neon_kernels_test.c -o "$out/test.o"
builds=("gcc -O2|$GCC -O2 -ffp-contract=off")
if command -v "$CLANG" >/dev/null 2>&1 && echo 'int main(void){return 0;}' | \
   "$CLANG" --target=aarch64-linux-gnu -x c -c - -o "$out/probe.o" 2>/dev/null; then
  builds+=("clang -O2|$CLANG --target=aarch64-linux-gnu -O2" "clang -O0|$CLANG --target=aarch64-linux-gnu -O0")
else
  echo "test-arm: no clang for --target=aarch64-linux-gnu; GCC only"
fi
status=0
for b in "${builds[@]}"; do
  name=${b%%|*}; cc=${b#*|}
  # The whole C target, as the Swift build compiles it for arm64 (no warnings), linked with the test.
  objs=()
  for f in "$src"/*.c; do
    $cc "${warn[@]}" -c "$f" -o "$out/$(basename "$f" .c).o"
    objs+=("$out/$(basename "$f" .c).o")
  done
  "$GCC" "$out/test.o" "${objs[@]}" -lm -lpthread -o "$out/neon_kernels_test"
  printf 'test-arm (%s): ' "$name"
  "$QEMU" -L "$SYSROOT" "$out/neon_kernels_test" || status=1
done
exit $status
