#!/usr/bin/env bash
# Installs what is missing, and only that:
#   setup.sh page   what the page's build needs (npm start, npm run dist): Emscripten, Eigen, CMake,
#                   make, g++ and the build's npm packages
#   setup.sh        that, and what the tests, the bench and the fuzzers add: doctest, Chromium,
#                   Firefox ESR, clang 14 and its libFuzzer, and the tests' npm packages
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

# npm packages: the build's are the root's (esbuild, the model's and the corpora's packages);
# the tests add theirs (tests/package.json, a workspace: Playwright, TypeScript, TF.js, …).
# Installed when node_modules does not match the lock file for this mode; a full
# install serves the page's mode too.
stamp() { echo "node_modules/.attention-lock-$1"; }
installed() { [ -f "$(stamp "$1")" ] && cmp -s package-lock.json "$(stamp "$1")"; }
if [ "$what" = page ]; then
  if ! installed page && ! installed all; then
    echo "setup: installing the build's npm packages"
    npm ci --workspaces=false --no-audit --no-fund --loglevel=error
    cp package-lock.json "$(stamp page)"
  fi
elif ! installed all; then
  echo "setup: installing npm packages (the build's and the tests')"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$(stamp all)"
fi
