#!/usr/bin/env bash
# Runs every suite, prints a count per suite, and ends with one summary line:
#   1. the native doctest suite under AddressSanitizer + UndefinedBehaviorSanitizer (ctest, build-fuzz)
#   2. the same doctest suite compiled to WASM, run in Node (ctest, build-wasm)
#   3. the libFuzzer targets: their kept crash inputs, then 5 s of fuzzing each
#   4. the Node API tests (node --test tests/node/)
#   5. the browser tests in headless Chromium (node --test tests/browser/), then
#      tests/browser/encoder-worker.timing.mjs alone
#   6. the Firefox smoke suite in headless firefox-esr (node --test tests/firefox/),
#      beside the Node API suite
# Fails if any suite fails or runs no test. Expects `scripts/build.sh all` first.
set -uo pipefail
cd "$(dirname "$0")/.."
# no build (npm start's, another npm test's) rewrites what the suites read meanwhile
. scripts/lock.sh
tree_lock test
logs=$(mktemp -d)
total_pass=0
total_fail=0
summary=()
suite_start=$SECONDS

record() {  # name passed failed status [seconds]
  # a suite that died before writing its counts gives empty ones: 0, then status decides
  local name=$1 pass=${2:-0} fail=${3:-0} status=$4 seconds=${5:-$((SECONDS - suite_start))}
  if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi  # crashed before reporting
  if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
    echo "test.sh: $name ran no test" >&2
    fail=1
  fi
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  summary+=("$(printf '  %-34s %5d passed, %d failed  (%d s)' "$name" "$pass" "$fail" "$seconds")")
}

ctest_suite() {  # name build-dir: the C++ tests CMakeLists.txt declares there (add_test)
  local name=$1 dir=$2 log="$logs/$1.log"
  echo "== $name"
  suite_start=$SECONDS
  # -V: the doctest binaries' own output, each line prefixed "<test number>: "
  ctest --test-dir "$dir" --no-tests=error -V 2>&1 | tee "$log" |
    grep -E '\[doctest\] (test cases|assertions)|ERROR|FATAL|Sanitizer|runtime error|tests passed|tests failed|No tests'
  local status=${PIPESTATUS[0]}
  # the counts: doctest's "test cases: N | P passed | F failed" lines, summed over the tests
  local counts
  counts=$(sed -nE 's/.*\[doctest\] test cases: *[0-9]+ *\| *([0-9]+) passed *\| *([0-9]+) failed.*/\1 \2/p' "$log" |
           awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }')
  record "$name" ${counts% *} ${counts#* } "$status"
}

# a node test suite: its report on stdout, its TAP in $logs/<name>.tap, and
# "status seconds" in $logs/<name>.status
run_node() {  # name dir [options]
  local name=$1 dir=$2 start=$SECONDS
  shift 2
  node --test "$@" --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$logs/$name.tap" "$dir"
  echo "$? $((SECONDS - start))" >"$logs/$name.status"
}
counted() {  # name: the counts of a suite run_node ran
  local name=$1 tap="$logs/$1.tap" status=1 seconds=0
  [ -f "$logs/$name.status" ] && read -r status seconds <"$logs/$name.status"
  record "$name" "$(grep -E '^# pass ' "$tap" 2>/dev/null | awk '{print $3}' | tail -1)" \
    "$(grep -E '^# fail ' "$tap" 2>/dev/null | awk '{print $3}' | tail -1)" "$status" "$seconds"
}
nodetest() {  # name dir [options]
  echo "== $1"
  run_node "$@"
  counted "$1"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest_suite "doctest native (ASan+UBSan)" build-fuzz
ctest_suite "doctest WASM (Node)" build-wasm
fuzz() {  # name seconds: one test per libFuzzer target
  local name=$1 log="$logs/fuzz.log"
  echo "== $name"
  suite_start=$SECONDS
  bash scripts/fuzz.sh "$2" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  record "$name" "$(grep -c ' ok, ' "$log")" "$(grep -c ' FAILED' "$log")" "$status"
}

fuzz "libFuzzer (5 s per target)" 5
# two test files at a time: the browser files wait on pages more than they
# compute (the whole Chromium suite: 14 min one at a time, 6 min two at a
# time, with every timing test reading thread time, not wall time)
# node starts the files in name order, whatever order they are given in: a
# long file whose name sorted last would run alone at the end (so the longest,
# tests/node/induction.test.mjs and tests/browser/every-widget.test.mjs, 75 s
# and 63 s alone, are not named lm-induction and widgets)
# the Firefox suite beside the Node API suite: it opens one embed at a time
# and leaves most of a core idle (1.2 of 2 cores), which the Node suite fills
run_node "Firefox smoke" tests/firefox/ --test-concurrency=2 >"$logs/firefox.out" 2>&1 &
firefox=$!
nodetest "Node API" tests/node/ --test-concurrency=2
wait "$firefox"
echo "== Firefox smoke (run beside the Node API suite)"
cat "$logs/firefox.out"
counted "Firefox smoke"
nodetest "browser (headless Chromium)" tests/browser/ --test-concurrency=2
# the test that holds the page's longest main-thread task at 4x under a fixed
# bound runs alone (its name is outside node's test patterns, so the run above
# leaves it out): on this kind of 2-core machine a second browser beside it
# inflates every task's thread time (a busy loop on the other core doubled it)
nodetest "browser, alone (main thread at 4x)" tests/browser/encoder-worker.timing.mjs

# every failing test's report again, from the TAP files: a log read from its
# end (CI's) shows why a test failed, not only which one
failures() {
  local tap
  for tap in "$logs"/*.tap; do
    awk -v suite="$(basename "$tap" .tap)" '
      /^ *not ok / { indent = match($0, /[^ ]/); shown = 0; printing = 1; print suite ": " substr($0, indent); next }
      printing && /[^ ]/ && match($0, /[^ ]/) <= indent && !/^ *---$/ && !/^ *\.\.\.$/ { printing = 0 }
      printing && /^ *\.\.\.$/ { printing = 0; next }
      printing && /^ *stack:/ { printing = 0; next }
      printing && shown < 40 { print "    " $0; shown++ }
    ' "$tap"
  done
}
if [ "$total_fail" -ne 0 ]; then
  echo
  echo "== the failures again"
  failures
fi
rm -rf "$logs"
echo
echo "== summary"
printf '%s\n' "${summary[@]}"
echo "the suites took $SECONDS s"
echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
