// Timing in the page, for the speed widget: a function's time per call,
// measured between macrotasks so the page keeps painting and answering input.
// Only clocks and scheduling here: no arithmetic of attention.

export const MIN_BATCH_MS = 5;      // a timed batch of calls: well above the browser's coarse clock (0.1 ms)
export const MIN_POINT_MS = 30;     // at least this long, and 3 batches, per point...
export const MAX_POINT_MS = 1000;   // ...but no longer than this

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

// The time of one call of fn, in ms: the fastest of batches of calls (other
// work on the machine only ever adds time, so the fastest batch is the least
// disturbed one). A batch shorter than MIN_BATCH_MS is not kept, and the next
// one has twice the calls (those short batches warm the code up).
// null when stopped() says so.
export async function timeCall(fn, stopped) {
  const perCall = [];
  let batch = 1, spent = 0;
  for (;;) {
    if (stopped()) return null;
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = performance.now() - start;
    spent += elapsed;
    if (elapsed < MIN_BATCH_MS) batch *= 2;
    else perCall.push(elapsed / batch);
    if (perCall.length && ((perCall.length >= 3 && spent >= MIN_POINT_MS) || spent >= MAX_POINT_MS)) break;
    await nextTask();
  }
  await nextTask();
  return Math.min(...perCall);
}
