# One lock per working tree for everything that writes build outputs or
# installs dependencies: setup.sh, build.sh, bench.sh's builds, test.sh.
# Sourced, not run:
#   . "$(dirname "$0")/lock.sh"; tree_lock <who>
# Holds .build.lock (flock on fd 9) until the script exits. A script started
# while its caller holds the lock (build.sh from bench.sh, npm pack from a
# test) inherits it: the variable below tells it not to wait for itself.

tree_lock() {  # who
  [ -n "${ATTENTION_TREE_LOCKED:-}" ] && return 0
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  exec 9>"$root/.build.lock"
  if ! flock -n 9; then
    echo "$1: waiting for another build or test run in this tree ($root/.build.lock)" >&2
    flock 9
  fi
  export ATTENTION_TREE_LOCKED=$$
}
