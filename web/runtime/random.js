// mulberry32: a small seeded generator of 32-bit states. The page shuffles
// words with it; the tests and the benchmark draw their inputs with it.

// uniform on [0, 1)
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// uniform on [-1, 1)
export function randomSigned(seed) {
  const next = random(seed);
  return () => next() * 2 - 1;
}
