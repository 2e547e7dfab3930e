#!/usr/bin/env bash
# Installs what is missing, and only that:
#   setup.sh page   what the page's build needs (npm start, npm run dist): Emscripten, Eigen, CMake,
#                   make, g++ and the npm packages
#   setup.sh        that, and what the tests, the bench and the fuzzers add: doctest, Chromium,
#                   Firefox ESR, clang 14 and its libFuzzer
# A second run finds everything in place and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
# npm ci replaces node_modules: never while a build or a test run uses it
. scripts/lock.sh
tree_lock setup
what=${1:-all}

missing=()
command -v emcc >/dev/null || missing+=(emscripten)
command -v cmake >/dev/null || missing+=(cmake)
command -v make >/dev/null || missing+=(make)
command -v g++ >/dev/null || missing+=(g++)
[ -f /usr/include/eigen3/Eigen/Dense ] || missing+=(libeigen3-dev)
if [ "$what" != page ]; then
  [ -f /usr/include/doctest/doctest.h ] || missing+=(doctest-dev)
  command -v chromium >/dev/null || missing+=(chromium)
  command -v firefox-esr >/dev/null || missing+=(firefox-esr)
  command -v clang++-14 >/dev/null || missing+=(clang-14)
  compgen -G '/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null || missing+=(libclang-rt-14-dev)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm dev dependencies: install when node_modules does not match the lock file
stamp=node_modules/.attention-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: installing npm dev dependencies"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
