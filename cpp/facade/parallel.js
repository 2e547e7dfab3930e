// A language model's steps computed by workers (createLanguageModel({ threads })):
// the data-parallel training of cpp/attention/language_model/model.hpp's "step
// in chunks". The model computes a run of each step's chunks on its own thread
// and threads - 1 workers compute the others. Each worker loads this training
// module again, holds a copy of the model (the same options, so the same
// vocabulary), and for every step gets the model's parameters and batch state,
// computes its run and sends back the sums of the tree's nodes inside it; the
// model adds them and its own up the tree and takes the step. The chunks and
// the tree are fixed by the batch, never by the threads, so every count gives
// step()'s bits.
//
// Where the workers run: in Node, worker_threads; in a browser, module
// workers (or classic ones for the classic attention-training.js) of this
// module itself, named so that it serves, or where the module is on another
// origin than the page (a CDN) started from a blob: URL whose one line loads
// it. A worker finds its port in a global set before the module loads, or is
// the worker of that name (serveSteps, which the training module calls at its
// top level).
//
//   const [mine, ...theirs] = runsOf(chunks, threads);  // the runs of chunks each thread computes
//   const pool = stepPool(threads - 1, options, url);   // options: createLanguageModel's, threads aside
//   await pool.ready();                                 // every worker started
//   await pool.step(values, state, theirs, here)        // worker w computes chunks theirs[w][0] .. theirs[w][1] - 1,
//     -> { nodes: [{ first, end, loss }], gradients }   // this thread here() meanwhile; Float32Array gradients,
//                                                       // the pool's again at the next step (their buffers are reused)
//   pool.end()                                          // ends every worker
// A worker that fails to load or dies rejects ready() or the step's Promise with
// an Error whose `worker` is true; the pool is then of no use (end() it). here()
// throwing rejects it with its error, once the workers' answers are in.
const PORT = 'attentionWasmStepPort';
const QUEUE = 'attentionWasmStepQueue';
const WORKER_NAME = 'attention-wasm steps';  // a worker of this name started with the module as its script serves
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
    // (import(), not require: the code is read as a module where the process was started with --input-type=module)
    const code = `import('node:worker_threads').then(({ parentPort }) => { globalThis.${PORT} = parentPort; ` +
      `return import(${JSON.stringify(url)}); });`;
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
  // the module itself as the worker's script where it is of this origin (a page's CSP allows
  // 'self' more often than blob:); from elsewhere, a blob: URL whose one line loads it (a
  // classic attention-training.js by importScripts, the module by import())
  const classic = /\.js$/.test(new URL(url).pathname);
  const here = typeof location !== 'undefined' && new URL(url).origin === location.origin;
  let worker;
  if (here) {
    worker = new Worker(url, { type: classic ? 'classic' : 'module', name: WORKER_NAME });
  } else {
    // (what comes before the module has loaded waits in a queue that serveSteps reads first)
    const body = `self.${PORT}=self;self.${QUEUE}=[];self.onmessage=(e)=>self.${QUEUE}.push(e.data);` + (classic ? `importScripts(${JSON.stringify(url)});` : `import(${JSON.stringify(url)});`);
    const blob = URL.createObjectURL(new Blob([body], { type: 'text/javascript' }));
    worker = new Worker(blob, classic ? {} : { type: 'module' });
    URL.revokeObjectURL(blob);
  }
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

// the runs of chunks 0 .. chunks - 1 that `threads` threads compute: thread w chunks
// ceil(w chunks / threads) .. ceil((w + 1) chunks / threads) - 1
export const runsOf = (chunks, threads) =>
  Array.from({ length: threads }, (_, w) => [Math.ceil((w * chunks) / threads), Math.ceil(((w + 1) * chunks) / threads)]);

// length floats in buffer where it holds them (a buffer that came back, reused), else in a new one
const floatsIn = (buffer, length) =>
  buffer && buffer.byteLength >= 4 * length ? new Float32Array(buffer, 0, length) : new Float32Array(length);

const workerError = (message) => Object.assign(new Error(message), { worker: true });

export function stepPool(count, options, url) {
  let failed = null;              // why the pool broke, once it has
  let pending = [];               // per worker: { resolve, reject } of the step it computes
  const workers = [];
  const spare = [];               // per worker: the buffer of its last answer, to send the next values in
  const fail = (message) => {
    if (failed) return;
    failed = message;
    for (const p of pending) if (p) p.reject(workerError(message));
    pending = [];
  };
  const started = Promise.all(Array.from({ length: count }, (_, w) => startWorker(url).then((worker) => {
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
    async ready() {
      await started;
      if (failed) throw workerError(failed);
    },
    // (values: copied at once, into each worker's buffer of the last step where there is one)
    async step(values, state, runs, here) {
      if (failed) throw workerError(failed);
      const answers = Promise.all(workers.map((worker, w) => new Promise((resolve, reject) => {
        pending[w] = { resolve, reject };
        worker.ref(true);
        const own = floatsIn(spare[w], values.length);
        own.set(values);
        worker.post({ type: 'step', values: own, state, first: runs[w][0], end: runs[w][1] }, [own.buffer]);
      }))).finally(() => workers.forEach((worker) => worker.ref(false)));
      try {
        here();
      } catch (error) {
        await answers.catch(() => {});  // (this step's answers: not to be taken for the next one's)
        throw error;
      }
      const nodes = [], gradients = [];
      for (const [w, answer] of (await answers).entries()) {
        spare[w] = answer.gradients.buffer;
        const size = answer.gradients.length / answer.nodes.length;
        answer.nodes.forEach((node, k) => {
          nodes.push(node);
          gradients.push(answer.gradients.subarray(k * size, (k + 1) * size));
        });
      }
      return { nodes, gradients };
    },
    end() {
      fail('the workers were ended');
      started.catch(() => {}).then(() => workers.forEach((worker) => worker && worker.end()));
    },
  };
}

// In a worker started by stepPool: serve its messages with a model of its own.
// createCore: the training module's Emscripten factory; callerOf(Module) its core caller.
export function serveSteps(createCore, callerOf) {
  const scope = typeof globalThis !== 'undefined' ? globalThis : self;
  const port = scope[PORT] || (typeof WorkerGlobalScope !== 'undefined' && scope.name === WORKER_NAME ? scope : null);
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
      const { nodes, gradients } = call('worker', 'raw_lm_chunk_sums', {
        handle, values: message.values, state: message.state, first: message.first, end: message.end,
      });
      // (a view of the heap: copied into the buffer the values came in)
      const out = floatsIn(message.values.buffer, gradients.length);
      out.set(gradients);
      send({ type: 'sums', nodes, gradients: out }, [out.buffer]);
    }).catch(failed);
  };
  if (typeof port.on === 'function') {
    port.on('message', serve);
    return;
  }
  port.addEventListener('message', (event) => serve(event.data));
  if (scope[QUEUE]) {
    scope.onmessage = null;
    scope[QUEUE].splice(0).forEach(serve);
  }
}
