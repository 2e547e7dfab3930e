// Training the reverse task: a one-layer attention model learns to reverse 8
// tokens; its map becomes the anti-diagonal.
//   node examples/node/train-reverse.mjs [seed]
import createAttention from '../../web/wasm/attention.mjs';

const att = await createAttention();
const seed = Number(process.argv[2] ?? 1);
const trainer = await att.createTrainer({ task: 'reverse', seed });
try {
  let accuracy = 0;
  while (accuracy < 0.99 && trainer.info().step < 1000) {
    const { step, loss } = trainer.step(10);
    accuracy = trainer.evaluate().accuracy;
    console.log(`step ${step}: batch loss ${loss.toFixed(4)}, held-out accuracy ${(100 * accuracy).toFixed(1)}%`);
  }
  const probe = trainer.probe();
  const top = att.argmaxRows(probe.weights[0]);
  console.log(`input      ${Array.from(probe.input).join(' ')}`);
  console.log(`prediction ${Array.from(probe.prediction).join(' ')}`);
  console.log(`where each output position looks: ${Array.from(top.index).join(' ')} (the anti-diagonal is 7 6 5 4 3 2 1 0)`);
} finally {
  trainer.delete();
}
