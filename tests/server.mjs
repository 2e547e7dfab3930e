// The static server of the browser suites (scripts/serve.mjs, any free port,
// root defaulting to web/) started together with a browser beside it.
//
//   launch()  starts the browser; resolves to its handles and a close()
//             ({ context, close }); if it throws, the server is stopped again
// Resolves to { url, origin, ...the handles, close() }: close() closes the
// browser, then stops the server.
import { serve } from '../scripts/serve.mjs';

export async function serveWith(launch, { root } = {}) {
  const { server, url } = await serve(root ? { root } : {});
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
