#!/usr/bin/env bash
# Runs every suite, prints a count per suite, and ends with one summary line:
#   1. the native doctest suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   2. the same doctest suite compiled to WASM, run in Node
#   3. the libFuzzer targets: their kept crash inputs, then 10 s of fuzzing each
#   4. the Node API tests (node --test tests/node/)
#   5. the browser tests in headless Chromium (node --test tests/browser/)
# Fails if any suite fails or runs no test. Expects `scripts/build.sh all` first.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
total_pass=0
total_fail=0
summary=()

record() {  # name passed failed status
  local name=$1 pass=$2 fail=$3 status=$4
  if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi  # crashed before reporting
  if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
    echo "test.sh: $name ran no test" >&2
    fail=1
  fi
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  summary+=("$(printf '  %-34s %5d passed, %d failed' "$name" "$pass" "$fail")")
}

doctest() {  # name command...
  local name=$1 log="$logs/$1.log"
  shift
  echo "== $name"
  "$@" --no-colors=true 2>&1 | tee "$log" | grep -E '^\[doctest\] (test cases|assertions)|ERROR|FATAL|Sanitizer|runtime error' 
  local status=${PIPESTATUS[0]}
  local line pass fail
  line=$(grep -E '^\[doctest\] test cases:' "$log" | tail -1)
  pass=$(sed -E 's/.*\| *([0-9]+) passed.*/\1/' <<<"$line")
  fail=$(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line")
  record "$name" "${pass:-0}" "${fail:-0}" "$status"
}

nodetest() {  # name dir [options]
  local name=$1 dir=$2 tap="$logs/$1.tap"
  shift 2
  echo "== $name"
  node --test "$@" --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "$dir"
  local status=$?
  record "$name" "$(grep -E '^# pass ' "$tap" | awk '{print $3}' | tail -1)" \
    "$(grep -E '^# fail ' "$tap" | awk '{print $3}' | tail -1)" "$status"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
doctest "doctest native (ASan+UBSan)" build-native/attention_tests
doctest "doctest WASM (Node)" node build-wasm/attention_tests.cjs
fuzz() {  # name seconds: one test per libFuzzer target
  local name=$1 log="$logs/fuzz.log"
  echo "== $name"
  bash scripts/fuzz.sh "$2" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  record "$name" "$(grep -c ' ok, ' "$log")" "$(grep -c ' FAILED' "$log")" "$status"
}

fuzz "libFuzzer (10 s per target)" 10
nodetest "Node API" tests/node/
nodetest "browser (headless Chromium)" tests/browser/ --test-concurrency=1

rm -rf "$logs"
echo
echo "== summary"
printf '%s\n' "${summary[@]}"
echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
