// Starts the page's Web Workers by kind: 'training' (the training widget's
// loop), 'lm' (the language model's), 'encoder' (the pretrained encoder),
// 'flash' (the flash widget's memory measurement), 'kv-heads' (its two models),
// 'positions' (the positions widget's five models), 'windows' (its two models generating).
//
// Beside the page's modules (index.html, embed.html, dist/): a module worker
// of the kind's own file. In the bundled embed.js, which may come from another
// origin than the page (a CDN), a module worker cannot be created from its
// URL: the worker is a classic one started from a same-origin blob: URL whose
// one line imports embed.js itself (importScripts reads scripts from any
// origin, like a <script> tag), told which kind to serve and where the files
// are (embed-script.js then serves it). Throws where no worker can start (no
// Worker, no address): the callers then work on the page's own thread.
//
//   startWorker('training') -> Worker
import { assetFolder, embedScriptUrl } from './assets.js';

const FILES = {
  training: '../widgets/training/worker.js', lm: '../widgets/language-model/worker.js', encoder: '../encoder/encoder-worker.js',
  flash: '../widgets/flash/worker.js', 'kv-heads': '../widgets/kv-heads/worker.js', positions: '../widgets/positions/worker.js',
  windows: '../widgets/windows/worker.js',
};
const blobs = new Map();  // kind -> blob: URL, one per kind and page

export function startWorker(kind) {
  if (!Object.hasOwn(FILES, kind)) throw new Error(`startWorker: no worker of kind ${JSON.stringify(kind)}`);
  if (import.meta.url) return new Worker(new URL(FILES[kind], import.meta.url), { type: 'module' });
  const script = embedScriptUrl();
  if (typeof Worker !== 'function' || !script) throw new Error('no worker can start here');
  if (!blobs.has(kind)) {
    const set = (name, value) => `self.${name}=${JSON.stringify(value)};`;
    const body = set('attentionWasmWorker', kind) + set('attentionWasmBase', assetFolder()) + set('attentionWasmScript', script) +
      `importScripts(${JSON.stringify(script)});`;
    blobs.set(kind, URL.createObjectURL(new Blob([body], { type: 'text/javascript' })));
  }
  return new Worker(blobs.get(kind));
}

// A button's run in a Web Worker of its own, one at a time (the flash and
// positions widgets): the worker posts { type: 'run', run } snapshots (the last
// one's status not 'running') or { type: 'failed', message }.
//   const job = workerJob('positions', report, failed);
//     report(run)        each snapshot, the first given to start() included
//     failed(message)    the run a failure reports (message '' when the worker gave none)
//   job.start(message, first) -> null, or why no worker could start (nothing runs then)
//   job.stop()         ends the run where it is and reports its last snapshot marked 'stopped'
//                      (Stop, another setting); job.end() ends it silently (unmount); job.running
export function workerJob(kind, report, failed) {
  let worker = null, last = null;
  const end = () => {
    worker?.terminate();
    worker = null;
  };
  return {
    get running() { return worker !== null; },
    end,
    stop() {
      if (!worker) return;
      end();
      report({ ...last, status: 'stopped', current: null });
    },
    start(message, first) {
      end();
      let w;
      try {
        w = startWorker(kind);
      } catch (error) {
        return String(error?.message ?? error);
      }
      worker = w;
      const hand = (run) => {
        if (worker !== w) return;
        last = run;
        report(run);
        if (run.status !== 'running') end();
      };
      w.addEventListener('message', (event) => hand(event.data?.type === 'run' ? event.data.run : failed(String(event.data?.message ?? ''))));
      w.addEventListener('error', (event) => {
        event.preventDefault();
        hand(failed(event.message || ''));
      });
      last = first;
      report(first);
      w.postMessage(message);
      return null;
    },
  };
}
