// The cores on node:http as the tests serve them: on 127.0.0.1 at a free port, with the keep-alive timeout
// server.ts sets (a client reusing an idle connection never meets one the server is closing), and a plain 404 (or
// the caller's answer) for a path the cores leave to Next.
import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { App } from "../../lib/app-type";
import type { SessionResolver } from "../../lib/mgmt/handle-management-request";
import { createNodeHandler, KEEP_ALIVE_TIMEOUT_MS } from "../../lib/transport/node-adapter";

export type CoreServer = { server: http.Server; baseUrl: string; port: number; close: () => Promise<void> };

const notFound = (res: ServerResponse) => void res.writeHead(404).end();

export const listenCore = async (app: App, options: { session?: SessionResolver; otherwise?: (res: ServerResponse) => void } = {}): Promise<CoreServer> => {
  const handle = createNodeHandler(app, options.session);
  const otherwise = options.otherwise ?? notFound;
  const server = http.createServer(async (req, res) => {
    if (!(await handle(req, res))) otherwise(res);
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  // Closing ends every connection, kept or still streaming (a feed a test left open): the 65 s keep-alive would
  // otherwise hold close() past a hook's time-out.
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { server, port, baseUrl: `http://127.0.0.1:${port}`, close };
};
