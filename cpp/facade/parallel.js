// A language model's steps computed by workers (createLanguageModel({ threads })):
// the data-parallel training of cpp/attention/language_model/model.hpp's "step
// in chunks". Each worker loads this training module again, holds a copy of
// the model (the same options, so the same vocabulary), and for every step
// gets the model's parameters and batch state, computes the chunks it is
// given and sends their gradients back; the model sums them in chunk order
// and takes the step. The chunks are fixed by the batch, never by the workers,
// so every count of workers gives the same bits as step().
//
// Where the workers run: in Node, worker_threads; in a browser, module
// workers (or classic ones for the classic attention-training.js) started from
// a blob: URL whose one line loads this module from where it was loaded, so
// that a page on another origin than the module (a CDN) can start them. A
// worker finds its port in a global set before the module loads
// (serveSteps, which the training module calls at its top level).
//
//   const pool = stepPool(threads, options, url);  // options: createLanguageModel's, threads aside
//   await pool.step(values, state, chunks) -> { losses: number[chunks], gradients: Float32Array[chunks] }
//   pool.end()                                      // ends every worker
// A worker that fails to load or dies rejects step() with an Error; the pool
// is then of no use (end() it).
const PORT = 'attentionWasmStepPort';
const NODE_THREADS = 'node:worker_threads';  // a name, not a literal import: bundles for browsers leave it alone
const isNode = typeof process === 'object' && process !== null && !!(process.versions && process.versions.node);

// Where this training module was loaded from: its own address (attention-training.mjs), or
// for the classic attention-training.js where the attention module's loader took it from
// (parts-script.js); undefined where no worker can find it.
export function moduleUrl() {
  const scope = typeof globalThis !== 'undefined' ? globalThis : self;
  return import.meta.url || (scope.attentionWasmScripts || {}).createAttentionTraining;
}

// One worker as { post(message, transfer), listen(onMessage, onFailure), ref(on), end() }.
async function startWorker(url) {
  if (isNode) {
    const { Worker } = await import(NODE_THREADS);
    const code = `const { parentPort } = require('node:worker_threads'); globalThis.${PORT} = parentPort;` +
      `import(${JSON.stringify(url)});`;
    const worker = new Worker(code, { eval: true });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      listen(onMessage, onFailure) {
        worker.on('message', onMessage);
        worker.on('error', (error) => onFailure(error && error.message ? error.message : String(error)));
        worker.on('exit', (code) => onFailure('the worker stopped (exit code ' + code + ')'));
      },
      ref: (on) => (on ? worker.ref() : worker.unref()),
      end: () => worker.terminate(),
    };
  }
  // a classic attention-training.js is loaded by importScripts, the module by import()
  const classic = /\.js$/.test(new URL(url).pathname);
  const body = `self.${PORT}=self;` + (classic ? `importScripts(${JSON.stringify(url)});` : `import(${JSON.stringify(url)});`);
  const blob = URL.createObjectURL(new Blob([body], { type: 'text/javascript' }));
  const worker = new Worker(blob, classic ? {} : { type: 'module' });
  URL.revokeObjectURL(blob);
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    listen(onMessage, onFailure) {
      worker.addEventListener('message', (event) => onMessage(event.data));
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        onFailure(event.message || 'the worker failed to load ' + url);
      });
      worker.addEventListener('messageerror', () => onFailure('a message from the worker could not be read'));
    },
    ref: () => {},
    end: () => worker.terminate(),
  };
}

export function stepPool(threads, options, url) {
  let failed = null;              // why the pool broke, once it has
  let pending = [];               // per worker: { resolve, reject } of the step it computes
  const workers = [];
  const fail = (message) => {
    if (failed) return;
    failed = message;
    for (const p of pending) if (p) p.reject(new Error(message));
    pending = [];
  };
  const started = Promise.all(Array.from({ length: threads }, (_, w) => startWorker(url).then((worker) => {
    workers[w] = worker;
    worker.listen((message) => {
      const p = pending[w];
      if (message.type === 'failed') fail(message.message);
      else if (p) {
        pending[w] = null;
        p.resolve(message);
      }
    }, fail);
    worker.ref(false);
    worker.post({ type: 'create', options });
  })));
  return {
    // chunk c is computed by worker floor(c threads / chunks)'s: contiguous runs, as even as they go
    async step(values, state, chunks) {
      await started;
      if (failed) throw new Error(failed);
      const asked = workers.map((worker, w) => {
        const mine = [];
        for (let c = Math.ceil((w * chunks) / threads); c < Math.ceil(((w + 1) * chunks) / threads); c++) mine.push(c);
        return mine;
      });
      const answers = await Promise.all(workers.map((worker, w) => new Promise((resolve, reject) => {
        pending[w] = { resolve, reject };
        worker.ref(true);
        worker.post({ type: 'step', values, state, chunks: asked[w] });
      }))).finally(() => workers.forEach((worker) => worker.ref(false)));
      const losses = [], gradients = [];
      answers.forEach((answer, w) => asked[w].forEach((c, k) => {
        const size = answer.gradients.length / asked[w].length;
        losses[c] = answer.losses[k];
        gradients[c] = answer.gradients.subarray(k * size, (k + 1) * size);
      }));
      return { losses, gradients };
    },
    end() {
      fail('the workers were ended');
      started.finally(() => workers.forEach((worker) => worker.end()));
    },
  };
}

// In a worker started by stepPool: serve its messages with a model of its own.
// createCore: the training module's Emscripten factory; callerOf(Module) its core caller.
export function serveSteps(createCore, callerOf) {
  const scope = typeof globalThis !== 'undefined' ? globalThis : self;
  const port = scope[PORT];
  if (!port) return;
  const send = (message, transfer) => port.postMessage(message, transfer);
  const failed = (error) => send({ type: 'failed', message: String(error && error.message ? error.message : error) });
  let model = null;  // Promise<{ call, handle }>
  let queue = Promise.resolve();
  const serve = (message) => {
    if (message.type === 'create') {
      model = createCore().then((Module) => {
        const call = callerOf(Module);
        return { call, handle: call('worker', 'raw_lm_create', message.options).handle };
      });
      model.catch(failed);
      return;
    }
    queue = queue.then(() => model).then(({ call, handle }) => {
      const { losses, gradients } = call('worker', 'raw_lm_chunk_gradients', {
        handle, values: message.values, state: message.state, chunks: message.chunks,
      });
      send({ type: 'chunks', losses: Array.from(losses), gradients }, [gradients.buffer]);
    }).catch(failed);
  };
  if (typeof port.on === 'function') port.on('message', serve);
  else port.addEventListener('message', (event) => serve(event.data));
}
