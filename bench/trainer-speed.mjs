// The trainer's speed in Node: milliseconds per Adam step of the default
// model (reverse, length 8, vocab 10, dModel 32, 1 head, batch 32), the
// median over single steps, and for seeds 1-5 the steps and the time until
// held-out accuracy first reaches 99% (checked after every step; evaluation
// time excluded), then the width trainer's step.
//
//   node bench/trainer-speed.mjs [--quick]
import createAttention from '../web/wasm/attention.mjs';

const quick = process.argv.includes('--quick');
const att = await createAttention();

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

// the median time of a single step of trainer t (which it deletes)
function msPerStep(t, count) {
  t.step(20);  // warm up
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    t.step(1);
    times.push(performance.now() - start);
  }
  t.delete();
  return median(times);
}

const steps = quick ? 50 : 500;
console.log(`default model: ${msPerStep(await att.createTrainer(), steps).toFixed(3)} ms per step (median of ${steps})`);

for (let seed = 1; seed <= 5; seed++) {
  const t = await att.createTrainer({ seed });
  let training = 0, reached = -1;
  for (let s = 1; s <= 300; s++) {
    const start = performance.now();
    t.step(1);
    training += performance.now() - start;
    if (t.evaluate().accuracy >= 0.99) {
      reached = s;
      break;
    }
  }
  t.delete();
  console.log(`reverse, seed ${seed}: 99% held-out accuracy after ${reached} steps, ${training.toFixed(0)} ms of training`);
}

const width = msPerStep(await att.createWidthTrainer(), steps);
console.log(`width trainer (50 samples): ${(width * 1000).toFixed(1)} us per step (median of ${steps})`);
