// The model file's reading (web/encoder/model-file.js readBody): an answer is
// read up to MODEL_MAX_BYTES (32 MiB) and no further, whatever its length, with
// its progress reported; an answer that says it is longer is refused unread.
// (The Error's words are in the catalogs: tests/browser/encoder-origin.test.mjs
// shows them in the widget.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_MAX_BYTES, readBody } from '../../web/encoder/model-file.js';

const MiB = 1024 * 1024;

// An answer that never ends: 1 MiB chunks as long as they are read; pulled: how many were asked for.
function endless(headers = {}) {
  const stream = { pulled: 0, cancelled: false };
  const body = new ReadableStream({
    pull(controller) { stream.pulled += 1; controller.enqueue(new Uint8Array(MiB)); },
    cancel() { stream.cancelled = true; },
  }, { highWaterMark: 0 });
  return { response: new Response(body, { headers }), stream };
}

// the Error of a file over the limit: a catalog key and its vars (the limit in MB, as the loader writes sizes)
const tooLong = (e) => e.name === 'ModelFileError' && e.message === 'modelTooLong' && e.vars.limit === '33.6';

test('an endless answer is read up to 32 MiB, then cancelled with an Error that says so', async () => {
  assert.equal(MODEL_MAX_BYTES, 32 * MiB);
  const { response, stream } = endless();
  let reported = 0;
  await assert.rejects(readBody(response, (loaded) => { reported = loaded; }), tooLong);
  assert.equal(stream.pulled, 33, 'one chunk past the limit was read, and no more');
  assert.ok(stream.cancelled, 'the stream was cancelled');
  assert.equal(reported, 32 * MiB, 'the progress stopped at the limit');
});

test('an answer whose Content-Length is over 32 MiB is refused before any of it is read', async () => {
  const { response, stream } = endless({ 'Content-Length': String(280 * MiB) });
  await assert.rejects(readBody(response, () => {}), tooLong);
  assert.equal(stream.pulled, 0);
  assert.ok(stream.cancelled);
});

test('a file up to 32 MiB is read whole, its progress reported per chunk', async () => {
  const bytes = new Uint8Array(32 * MiB);
  bytes[0] = 7;
  bytes[bytes.length - 1] = 9;
  const seen = [];
  const read = await readBody(new Response(bytes, { headers: { 'Content-Length': String(bytes.length) } }), (loaded, total) => seen.push([loaded, total]));
  assert.equal(read.length, 32 * MiB);
  assert.deepEqual([read[0], read.at(-1)], [7, 9]);
  assert.deepEqual(seen.at(-1), [32 * MiB, 32 * MiB]);
});
