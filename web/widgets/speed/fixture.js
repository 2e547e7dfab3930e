// A finished run of the speed widget (its `run` state, web/widgets/speed/widget.js)
// with given ratios JS ÷ kernel at n = 32, 64, ...: the kernel's time grows
// as n², the JS loop's is the ratio times it; each time the median of 7
// batches. For tests that give the widget timings instead of taking them
// (not in the release: scripts/dist.mjs leaves a widget's fixture.js out).
export function runOf(ratios, { d = 64 } = {}) {
  const points = ratios.map((ratio, i) => {
    const n = 32 * 2 ** i, kernel = 0.002 * (n / 32) ** 2;
    return { n, js: ratio * kernel, kernel, diff: 1e-7, batches: { js: 7, kernel: 7 } };
  });
  return { d, maxN: Math.max(256, points.at(-1).n), status: 'done', current: null, done: 2 * points.length, total: 2 * points.length, points };
}
