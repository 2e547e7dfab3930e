#!/usr/bin/env bash
# npm run bench: installs what is missing (the Debian packages and npm dev
# dependencies as for npm test, and the peers in bench/node_modules), builds
# the module, the benchmark's WASM side (build-wasm/bench) and its native side
# (build-bench, g++ -O3 -march=native), then runs bench/bench.mjs (attention:
# a table on stdout and bench/results.json), bench/window.mjs (a window against
# full causal at n = 16,384: bench/results-window.json), bench/encoder.mjs (the
# pretrained encoder in headless Chromium: bench/results-encoder.json),
# bench/encoder-peer.mjs (the encoder against tfjs-backend-wasm running the
# same model in Node: bench/results-encoder-peer.json), bench/quantize.mjs
# (the model file formats: size against the change of the maps and
# embeddings, a table on stdout), bench/trainer-vs-tfjs.mjs (training against
# TF.js, and time to 99% in Node and Chromium: bench/results-train.json),
# bench/language-model-vs-tfjs.mjs (the language model on the quatrains against
# TF.js, and the time to write a poem: bench/results-lm.json) and
# bench/language-model-threads.mjs (the poem model by 2 threads against one
# thread and TF.js: bench/results-lm-threads.json). Arguments go to each of them (--quick: a smoke run).
set -euo pipefail
cd "$(dirname "$0")/.."
# the tree's build lock, for the builds and the timing runs alike: a build
# started meanwhile (npm start, npm test) would both race and skew the figures
. scripts/lock.sh
tree_lock bench
jobs=$(nproc 2>/dev/null || echo 2)
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

bash scripts/setup.sh
# the peers (onnxruntime-web, tfjs): their own package.json, so npm test does not pull them
stamp=bench/node_modules/.attention-lock
if [ ! -f "$stamp" ] || ! cmp -s bench/package-lock.json "$stamp"; then
  echo "bench: installing the peers (bench/package.json)"
  (cd bench && npm ci --no-audit --no-fund --loglevel=error)
  cp bench/package-lock.json "$stamp"
fi

bash scripts/build.sh wasm
cmake --build build-wasm -j"$jobs" --target attention_bench >/dev/null
# (gcc 12 warns of "maybe uninitialized" inside Eigen's AVX-512 intrinsics by the thousand: its own headers' false alarm)
[ -f build-bench/CMakeCache.txt ] ||
  cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-march=native -Wno-maybe-uninitialized" >/dev/null
cmake --build build-bench -j"$jobs" --target attention_bench_native >/dev/null

node bench/bench.mjs "$@"
node bench/window.mjs "$@"
node bench/encoder.mjs "$@"
node bench/encoder-peer.mjs "$@"
node bench/quantize.mjs "$@"
node bench/trainer-vs-tfjs.mjs "$@"
node bench/language-model-vs-tfjs.mjs "$@"
node bench/language-model-threads.mjs "$@"
