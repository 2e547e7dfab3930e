// A static file server for web/ on 127.0.0.1, for `npm start` and the browser
// tests. Serves only files under the root, with the right MIME types, and an
// ETag: a file the browser has (a module a worker imports again) comes back
// as 304 Not Modified, not a second download. A file under the release's
// content-addressed folder (dist/immutable/<hash>/) is sent to be kept for good.
//   node scripts/serve.mjs            PORT from the environment, default 8000; when it is
//                                     taken, the next free one (said on the console)
//   node scripts/serve.mjs dist       the release instead of web/
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.mts': 'text/plain; charset=utf-8',
  '.bin': 'application/octet-stream',
};

const here = fileURLToPath(new URL('.', import.meta.url));
export const WEB_ROOT = resolve(here, '..', 'web');

// Starts a server for root on host:port (port 0: any free port); resolves to { server, url }.
// base: the path root is served under ('/site/v1/': a host's subpath; other paths are 404);
// headers: sent with every answer (the tests' CDN sends Access-Control-Allow-Origin: *);
// routes: { '/path': (req, res) => … } answered by a function instead of a file (the tests').
export function serve({ root = WEB_ROOT, host = '127.0.0.1', port = 0, base = '/', headers = {}, routes = {} } = {}) {
  const server = createServer(async (req, res) => {
    const route = new URL(req.url, 'http://localhost').pathname;
    if (Object.hasOwn(routes, route)) {
      routes[route](req, res);
      return;
    }
    try {
      const whole = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      if (!whole.startsWith(base)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      const path = whole.slice(base.length - 1);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
      const cache = path.startsWith('/immutable/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ETag: etag, 'Cache-Control': cache, ...headers });
        res.end();
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] || 'application/octet-stream',
        // the length lets a page show a download's progress (the 14 MB model file)
        'Content-Length': body.length,
        'Cache-Control': cache,
        ETag: etag,
        ...headers,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'EISDIR' ? 404 : 500, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((ok, ko) => {
    server.once('error', ko);
    server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}${base}` }));
  });
}

// How many ports after PORT `npm start` tries when PORT is taken (a second
// `npm start`, another server): the first free one is used, and said.
export const PORT_TRIES = 20;

// Serves on the first free port of port, port + 1, ... (tries of them); resolves
// to { server, url, port }. Throws a clear Error when PORT is not a port, or
// none of them is free (their owner named: "in use" or "not allowed").
// port: a number, or the text of PORT.
export async function serveFrom(given, { tries = PORT_TRIES, ...options } = {}) {
  const port = typeof given === 'string' && /^\s*\d+\s*$/.test(given) ? Number(given) : given;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a whole number from 1 to 65535, got ${JSON.stringify(String(given))}`);
  const last = Math.min(65535, port + tries - 1);
  for (let p = port; ; p++) {
    try {
      const started = await serve({ ...options, port: p });
      return { ...started, port: p };
    } catch (error) {
      if (error.code === 'EACCES') throw new Error(`port ${p} is not allowed for this user (ports below 1024 need root): choose another with PORT=8080 npm start`);
      if (error.code !== 'EADDRINUSE') throw error;
      if (p >= last) throw new Error(`ports ${port} to ${last} are all in use: stop the server on ${port}, or choose another port with PORT=9000 npm start`);
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const wanted = process.env.PORT || 8000;
  const folder = process.argv[2];
  try {
    const { url, port } = await serveFrom(wanted, folder ? { root: resolve(folder) } : {});
    if (port !== Number(wanted)) console.log(`attention-wasm: port ${wanted} is in use (another server?), so this one takes ${port}; PORT=... npm start chooses the port.`);
    console.log(`attention-wasm: serving ${folder ?? 'web/'} at ${url}  (Ctrl+C to stop)`);
  } catch (error) {
    console.error(`attention-wasm: ${error.message}`);
    process.exitCode = 1;
  }
}
