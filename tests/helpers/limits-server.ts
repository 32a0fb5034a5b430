// A Tabula server as a child process, for tests that need several processes on one install:
//   node --import tsx tests/helpers/limits-server.ts
// Reads ENGINE, DATA_DIR, DATABASE_URL and REDIS_URL; prints `READY <port>` once listening; exits on SIGTERM
// or when the parent goes (its stdin ends).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../../lib/app";
import type { EngineKind } from "../../lib/config";
import { createNodeHandler, KEEP_ALIVE_TIMEOUT_MS } from "../../lib/transport/node-adapter";

const main = async () => {
  const app = await createApp({
    engine: (process.env.ENGINE ?? "sqlite") as EngineKind,
    dataDir: process.env.DATA_DIR!,
    databaseUrl: process.env.DATABASE_URL || undefined,
    redisUrl: process.env.REDIS_URL || undefined,
    bcryptCost: 4,
  });
  const handle = createNodeHandler(app);
  const server = http.createServer((req, res) => {
    handle(req, res)
      .then((handled) => void (handled || res.writeHead(404).end()))
      .catch((err: unknown) => {
        console.error("[limits server]", err);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.closeAllConnections();
    server.close();
    app.close().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.stdin.on("end", stop).resume();
  server.listen(0, "127.0.0.1", () => console.log(`READY ${(server.address() as AddressInfo).port}`));
};

main().catch((err) => {
  console.error("[limits server] failed to start:", err);
  process.exit(1);
});
