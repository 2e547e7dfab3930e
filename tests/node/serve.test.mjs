// `npm start`'s server (scripts/serve.mjs) when its port is taken: it serves
// on the next free port and says which, instead of ending in a Node stack
// trace (EADDRINUSE); a PORT that is no port, or ports all taken, are one line
// that says what to do, and the exit code 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serveFrom } from '../../scripts/serve.mjs';

const SCRIPT = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));

// a port held by another server (a plain TCP listener), and its release
async function holdPort(port = 0) {
  const server = createServer();
  await new Promise((ok, ko) => { server.once('error', ko); server.listen(port, '127.0.0.1', ok); });
  return { port: server.address().port, close: () => new Promise((done) => server.close(done)) };
}

// runs serve.mjs with PORT until it prints its address (or exits); resolves to
// { out, err, code (null while it runs) }, the process stopped after
function runServe(port, { until = /serving .* at (http:\S+)/ } = {}) {
  const child = spawn(process.execPath, [SCRIPT], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error(`no answer: ${out} ${err}`)); }, 10000);
    const check = () => {
      if (!until.test(out)) return;
      clearTimeout(timer);
      child.kill();
      resolve({ out, err, code: null });
    };
    child.stdout.on('data', (chunk) => { out += chunk; check(); });
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('exit', (code) => { clearTimeout(timer); resolve({ out, err, code }); });
  });
}

test('a taken port: the next free one serves the page, and the console says which', async () => {
  const held = await holdPort();
  try {
    const { out, err, code } = await runServe(held.port);
    assert.equal(code, null, `it runs (stderr: ${err})`);
    assert.equal(err, '', 'no stack trace');
    assert.match(out, new RegExp(`port ${held.port} is in use .*takes ${held.port + 1}; PORT=\\.\\.\\. npm start chooses the port`));
    assert.match(out, new RegExp(`serving web/ at http://127\\.0\\.0\\.1:${held.port + 1}/`));
  } finally {
    await held.close();
  }
});

test('the port taken by a second serve.mjs: it serves index.html on the next port', async () => {
  const first = await serveFrom((await (async () => { const h = await holdPort(); await h.close(); return h.port; })()));
  try {
    const second = await serveFrom(first.port);
    try {
      assert.equal(second.port, first.port + 1);
      const res = await fetch(`${second.url}index.html`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /<title>/);
    } finally {
      second.server.close();
    }
  } finally {
    first.server.close();
  }
});

test('every port tried is taken: one line naming them and PORT=, exit code 1', async () => {
  const held = await holdPort();
  try {
    await assert.rejects(serveFrom(held.port, { tries: 1 }),
      { message: `ports ${held.port} to ${held.port} are all in use: stop the server on ${held.port}, or choose another port with PORT=9000 npm start` });
  } finally {
    await held.close();
  }
});

test('a PORT that is not a port: a clear line, exit code 1, no stack trace', async () => {
  const { out, err, code } = await runServe('eighty');
  assert.equal(code, 1);
  assert.equal(out, '');
  assert.equal(err.trim(), 'attention-wasm: PORT must be a whole number from 1 to 65535, got "eighty"');
});
