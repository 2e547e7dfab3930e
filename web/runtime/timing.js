// Timing in the page, for the speed widget: a function's time per call,
// measured between macrotasks so the page keeps painting and answering input.
// Only clocks and scheduling here: no arithmetic of attention.

export const MIN_BATCH_MS = 5;      // a timed batch of calls: well above the browser's coarse clock (0.1 ms)
export const BATCHES = 7;           // a point is the median of this many batches...
export const FEW_BATCHES = 3;       // ...or of this many when one batch takes longer than
export const LONG_BATCH_MS = 100;   // this (the JS loop from n = 512: the run stays within seconds)

// A macrotask: the page paints and answers input between two timings (a
// message, not setTimeout, which browsers clamp to 4 ms when chained).
export function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

// The middle of the times, sorted (an odd count: one of them).
const middle = (times) => times.slice().sort((a, b) => a - b)[(times.length - 1) >> 1];

// The time of one call of fn, in ms: { ms, batches }, the median time per call
// over `batches` timed batches of calls. Batches of 1, 2, 4, ... calls warm
// the code up until one lasts MIN_BATCH_MS; from then on every batch has that
// many calls and is kept, BATCHES of them (FEW_BATCHES when one lasts over
// LONG_BATCH_MS). The median, not the fastest or the mean: one batch that
// other work on the machine slowed (or a first call that grew the memory)
// moves it no more than any other batch does.
// null when stopped() says so.
export async function timeCall(fn, stopped) {
  const perCall = [];
  let batch = 1, wanted = BATCHES;
  for (;;) {
    if (stopped()) return null;
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = performance.now() - start;
    if (perCall.length === 0 && elapsed < MIN_BATCH_MS) batch *= 2;
    else perCall.push(elapsed / batch);
    if (elapsed > LONG_BATCH_MS) wanted = FEW_BATCHES;
    if (perCall.length >= wanted && perCall.length % 2 === 1) break;  // an odd count: the median is one batch's
    await nextTask();
  }
  await nextTask();
  return { ms: middle(perCall), batches: perCall.length };
}
