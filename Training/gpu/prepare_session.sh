#!/usr/bin/env bash
# Everything a session lent a GPU machine prepares here before its first device call, for both trainings
# (Docs/cjk.md "What the next session with a GPU should do"; Training/README.md "One call on a lent GPU
# machine"). Does nothing that is already there; about 7 minutes on 2 cores from nothing.
#
#   Training/gpu/prepare_session.sh        # then: mv Models /tmp/Models-aside (and back after the calls)
#
# carry for the calls: ["Training/work/cjk", "Training/work/cjk-start", "Training/work/latn-gpu", ".whl"]
# (about 45 MiB with the checkout, under the 64 MiB that travels once Models/ is out of it).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -m pip install -q -r Training/requirements.txt
export PYTHONPATH="$PWD/Training${PYTHONPATH:+:$PYTHONPATH}"
[ -f Training/work/cjk/glyphs.npz ] || python3 -m inkrec_training cjk data
[ -f Training/work/latn-gpu/boxes.pkl.xz ] || python3 -m inkrec_training latin data --out Training/work/latn-gpu
mkdir -p Training/work/cjk-start Training/work/latn-gpu/start
cp Models/cjk-bilstm192x3/weights.safetensors Training/work/cjk-start/      # the shipped networks, to continue
cp Models/latn-bilstm96x3/weights.safetensors Training/work/latn-gpu/start/
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo /.whl/ >> .git/info/exclude
ls .whl/Hershey_Fonts-*.whl >/dev/null 2>&1 || python3 -m pip download -q --no-deps --only-binary=:all: \
  --python-version 3.12 --implementation cp --platform manylinux2014_x86_64 -d .whl Hershey-Fonts==2.1.0
du -sh Training/work/cjk Training/work/cjk-start Training/work/latn-gpu .whl
echo "ready: mv Models /tmp/Models-aside before the device calls, mv /tmp/Models-aside Models after them"
