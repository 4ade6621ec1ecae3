#!/usr/bin/env bash
# The integration's tests: installs the package with pip (as a user would, from this folder), unpacks
# the archive (scripts/spark-archive) as spark-submit --archives would, and runs pytest with its inkrec.
#   Integrations/spark/run-tests.sh ARCHIVE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
archive=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip install -q --disable-pip-version-check --no-deps "$here"
mkdir -p "$work/inkrec"
tar -xzf "$archive" -C "$work/inkrec"
export INKREC_SPARK_BIN="$work/inkrec/inkrec" INKREC_SPARK_REQUIRED=1
cd "$here"
python3 -m pytest -q -rs tests
