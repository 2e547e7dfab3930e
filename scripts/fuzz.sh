#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz/fuzz_*.cpp, built by build.sh all in
# build-fuzz with clang 14, ASan and UBSan), each:
#   1. on its kept crash inputs, tests/fuzz/regressions/<target>/ (each must pass now);
#   2. fuzzing from its seed corpus, tests/fuzz/corpus/<target>/, for SECONDS;
#   3. on a long run (SECONDS >= 60: npm run fuzz), the inputs that run found
#      with new coverage merged into the seed corpus (libFuzzer's -merge=1), so
#      that the next run, and CI's short one, start where this one ended:
#      commit what it adds to tests/fuzz/corpus/.
#   fuzz.sh [seconds]     default 5 (what npm test runs: a smoke run); npm run fuzz: 300
# Runs as many targets at once as there are cores. Prints one line per target ("fuzz: <target> ok, N executions" or where the
# crash input was written, under build-fuzz/crashes/) and fails if any target crashed.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lock.sh
tree_lock fuzz
seconds=${1:-5}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p build-fuzz/crashes
jobs=$(nproc 2>/dev/null || echo 2)

# one target: its kept crash inputs, then SECONDS of fuzzing; its report line(s)
# in build-fuzz/<target>.result, its status in build-fuzz/<target>.status
run_target() {  # binary
  local binary=$1 target=${1#build-fuzz/fuzz_}
  local log=build-fuzz/$target.log result=build-fuzz/$target.result
  local regressions=(tests/fuzz/regressions/"$target"/*)
  if [ -e "${regressions[0]}" ] && ! "$binary" "${regressions[@]}" >"$log" 2>&1; then
    { echo "fuzz: $target FAILED on a kept crash input:"
      grep -E 'ERROR|SUMMARY|Running:|#[0-9]+ 0x.* in (attn|LLVMFuzzer)' "$log" | head -12; } >"$result"
    echo 1 >"build-fuzz/$target.status"
    return
  fi
  local work=build-fuzz/corpus/$target  # what this run adds; the seeds in the repo stay as they are
  mkdir -p "$work"
  if "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="build-fuzz/crashes/$target-" "$work" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    local grown=""
    if [ "$seconds" -ge 60 ]; then
      local before after
      before=$(ls "tests/fuzz/corpus/$target" | wc -l)
      "$binary" -merge=1 -timeout=10 -rss_limit_mb=2048 "tests/fuzz/corpus/$target" "$work" >>"$log" 2>&1
      after=$(ls "tests/fuzz/corpus/$target" | wc -l)
      grown=", $((after - before)) inputs added to tests/fuzz/corpus/$target ($after in all)"
    fi
    echo "fuzz: $target ok, $(grep -E 'stat::number_of_executed_units' "$log" | head -1 | awk '{print $2}') executions in ${seconds} s$grown" >"$result"
    echo 0 >"build-fuzz/$target.status"
  else
    { echo "fuzz: $target FAILED:"
      grep -E 'ERROR|SUMMARY|Test unit written|#[0-9]+ 0x.* in (attn|LLVMFuzzer)' "$log" | head -12; } >"$result"
    echo 1 >"build-fuzz/$target.status"
  fi
}

# as many targets at once as there are cores (each fuzzer is one process on one core)
binaries=(build-fuzz/fuzz_*)
for binary in "${binaries[@]}"; do
  rm -f "build-fuzz/${binary#build-fuzz/fuzz_}.status"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  run_target "$binary" &
done
wait
failed=0
for binary in "${binaries[@]}"; do
  target=${binary#build-fuzz/fuzz_}
  cat "build-fuzz/$target.result" 2>/dev/null || echo "fuzz: $target FAILED: no result"
  [ "$(cat "build-fuzz/$target.status" 2>/dev/null)" = 0 ] || failed=1
done
[ "$failed" -eq 0 ]
