// A static file server for web/ on 127.0.0.1, for `npm start` and the browser
// tests. Serves only files under the root, with the right MIME types.
//   node scripts/serve.mjs            PORT from the environment, default 8000
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
export function serve({ root = WEB_ROOT, host = '127.0.0.1', port = 0 } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] || 'application/octet-stream',
        // the length lets a page show a download's progress (the 14 MB model file)
        'Content-Length': body.length,
        'Cache-Control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'EISDIR' ? 404 : 500, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((ok, ko) => {
    server.once('error', ko);
    server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT || 8000);
  const { url } = await serve({ port });
  console.log(`attention-wasm: serving web/ at ${url}  (Ctrl+C to stop)`);
}
