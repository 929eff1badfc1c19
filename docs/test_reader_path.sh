#!/usr/bin/env bash
# The reader's path of the main page and the README, end to end on the default device: a small
# bench.py sweep into a results directory of its own, docs/render.py on it beside the committed
# files, and Doxygen (warnings are errors) on the pages with those snippets; step 1's page must
# then show the new device. The rooflines and the step-against-step comparisons are written as stubs
# (GEMM_DOCS_FIGURE_STUBS): docs.build draws and checks them; drawing them again here took half of
# this test's time. Used by the test docs.reader_path (docs/CMakeLists.txt).
#   docs/test_reader_path.sh SOURCE BUILD DOXYFILE DOXYGEN GNUPLOT PYTHON SCRATCH
set -eu
source=$1 build=$2 doxyfile=$3 doxygen=$4 gnuplot=$5 python=$6 scratch=$7
rm -rf "$scratch" && mkdir -p "$scratch/results"
cp "$source"/docs/results/*.csv "$scratch/results/"
"$python" "$source/bench/bench.py" --build-dir "$build" --out "$scratch/results/my-device.csv" --sizes 64,128 \
  --odd-sizes none --exclude cublas --repeat 1 --warmup 0 >/dev/null
GEMM_DOCS_FIGURE_STUBS=1 "$python" "$source/docs/render.py" --source "$source" --results "$scratch/results" --out "$scratch/gen" \
  --gnuplot "$gnuplot"
# everything generated from this render too: the figures quoted in sentences, the pages made from
# the exercises (the build's own gen/ may be mid-rebuild by docs.build, running beside this test)
gen=$(sed -n 's|^@INCLUDE *= *\(.*\)/prose_figures\.doxy$|\1|p' "$doxyfile")
[ -n "$gen" ] || { echo "$doxyfile: no @INCLUDE of prose_figures.doxy" >&2; exit 1; }
{ sed "s|$gen|$scratch/gen|g" "$doxyfile"
  echo "EXAMPLE_PATH = $source $scratch/gen"; echo "IMAGE_PATH = $scratch/gen";
  echo "OUTPUT_DIRECTORY = $scratch/site"; } | "$doxygen" -
# (the lessons' length is the committed site's, checked by docs.build: this sweep adds a device)
GEMM_DOCS_OWN_RECORDS=1 "$python" "$source/docs/render.py" --source "$source" --results "$scratch/results" \
  --out "$scratch/gen" --check-html "$scratch/site/html"
# step 1's page, as text: the new device's row of the lesson's table (step01_buys.md, one line of
# HTML per row), its headline size and its GFLOPS. Doxygen 1.9.4 (Debian 12) names the page
# md_docs_step01.html, 1.9.8 (Debian 13) step01.html.
page=$scratch/site/html/step01.html
[ -f "$page" ] || page=$scratch/site/html/md_docs_step01.html
sed -e 's/<[^>]*>//g' "$page" | grep -E "^my-device +M=N=K=128 +[0-9.]+ "
