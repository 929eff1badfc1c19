#!/usr/bin/env bash
# bench/bench.py over a draft step of the lab (a step built with DRAFT, which gemm_steps.txt leaves
# out, so the benchmark does not find it), beside the steps and peers named: a copy of BUILD_DIR's
# step list with the draft added, in a scratch build view that links to BUILD_DIR's programs.
#   lab/bench_draft.sh BUILD_DIR DRAFT OUT.csv [bench.py options...]
#   e.g. lab/bench_draft.sh build-gpu kernel12_predication "$OUT/nvidia-h100-step12-draft.csv" \
#          --programs kernel11_tensor_cores,kernel12_predication,cublas --sizes 256,1024
set -euo pipefail
build=${1:?usage: lab/bench_draft.sh BUILD_DIR DRAFT OUT.csv [bench.py options...]}
draft=${2:?usage: lab/bench_draft.sh BUILD_DIR DRAFT OUT.csv [bench.py options...]}
out=${3:?usage: lab/bench_draft.sh BUILD_DIR DRAFT OUT.csv [bench.py options...]}
shift 3
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$(cd "$build" && pwd)
[ -x "$build/lab/$draft/$draft" ] || { echo "lab/bench_draft.sh: no $build/lab/$draft/$draft (build it first)" >&2; exit 2; }
view=$(mktemp -d)
trap 'rm -rf "$view"' EXIT
for entry in "$build"/*; do ln -s "$entry" "$view/"; done
rm -f "$view/gemm_steps.txt"
{ cat "$build/gemm_steps.txt"; echo "$draft"; } > "$view/gemm_steps.txt"
rm -f "$view/$draft"
ln -s "$build/lab/$draft" "$view/$draft"
python3 bench/bench.py --build-dir "$view" --out "$out" "$@"
