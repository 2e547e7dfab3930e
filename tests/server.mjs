// The static server of the browser suites (scripts/serve.mjs, any free port,
// root defaulting to web/) started together with a browser beside it, with
// the answers no static file gives, under /test/:
//   /test/endless.bin       an octet stream that never ends (1 MiB chunks of zeros as fast as
//                           they are read; stopped at 256 MiB); served.endless: the bytes each
//                           such answer had sent when its reader went away
//   /test/redirect?to=URL   a 302 to URL
//   /test/target.bin        a 404 that counts its requests (served.target)
//
//   launch()  starts the browser; resolves to its handles and a close()
//             ({ context, close }); if it throws, the server is stopped again
// Resolves to { url, origin, ...the handles, close() }: close() closes the
// browser, then stops the server.
import { serve } from '../scripts/serve.mjs';

const MiB = 1024 * 1024;
export const ENDLESS_STOP = 256 * MiB;  // a reader that never stops still ends here (a test, not the machine, fails)

export const served = { endless: [], target: 0 };

function endless(req, res) {
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
  const chunk = Buffer.alloc(MiB);
  let sent = 0, done = false;
  const finish = () => {
    if (done) return;
    done = true;
    served.endless.push(sent);
    res.destroy();
  };
  const more = () => {
    while (!done && sent < ENDLESS_STOP) {
      // counted once written to the socket: what the reader took, plus the socket's buffers
      const flushed = res.write(chunk, (error) => { if (!error) sent += MiB; });
      if (!flushed) return;
    }
    if (sent >= ENDLESS_STOP) finish();
  };
  res.on('drain', more);
  res.on('close', finish);
  more();
}

export const TEST_ROUTES = {
  '/test/endless.bin': endless,
  '/test/redirect': (req, res) => {
    res.writeHead(302, { Location: new URL(req.url, 'http://localhost').searchParams.get('to') ?? '/' });
    res.end();
  },
  '/test/target.bin': (req, res) => {
    served.target += 1;
    res.writeHead(404, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' });
    res.end('not found');
  },
};

export async function serveWith(launch, { root } = {}) {
  const { server, url } = await serve({ ...(root ? { root } : {}), routes: TEST_ROUTES });
  let launched;
  try {
    launched = await launch();
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    ...launched,
    url,
    origin: new URL(url).origin,
    async close() {
      await launched.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
