// The server under test, run as a child process so autocannon (in the parent) never shares its event loop.
//   node --import tsx bench/server.ts <tabula|ceiling>
// Configuration comes from BENCH_* environment variables set by bench/child.ts. Prints `READY <port>` once
// listening; exits on SIGTERM (writing its CPU profile when BENCH_PROFILE_DIR is set) or when the parent goes.
// `GET /__bench/inflight` answers how many requests are still being handled, so the parent can wait until
// the warm-up's backlog is drained before it measures.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../lib/app";
import { type EngineKind, readConfig } from "../lib/config";
import { createNodeHandler } from "../lib/transport/node-adapter";
import { armProfiler } from "./capture-profile";
import { createCeilingHandler } from "./ceiling";

type Served = { handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>; close: () => Promise<void> };

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const serveTabula = async (engine: EngineKind): Promise<Served> => {
  // SQLITE_READERS, SQLITE_CACHE_MB, SQLITE_MAX_OPEN and SQLITE_IDLE_SECONDS apply as in production.
  const { sqliteReaders, sqliteCacheMb, sqliteMaxOpen, sqliteIdleSeconds } = readConfig();
  const app = await createApp({ engine, dataDir: env("BENCH_DATA_DIR"), databaseUrl: process.env.BENCH_DATABASE_URL, redisUrl: process.env.REDIS_URL, bcryptCost: 4, sqliteReaders, sqliteCacheMb, sqliteMaxOpen, sqliteIdleSeconds });
  const handleCore = createNodeHandler(app);
  return {
    handle: async (req, res) => {
      if (!(await handleCore(req, res))) res.writeHead(404).end();
    },
    close: () => app.close(),
  };
};

const main = async () => {
  const stopProfile = process.env.BENCH_PROFILE_DIR ? armProfiler(process.env.BENCH_PROFILE_DIR) : async () => {};
  const mode = process.argv[2];
  const engine = env("BENCH_ENGINE") as EngineKind;
  const served: Served =
    mode === "tabula"
      ? await serveTabula(engine)
      : mode === "ceiling"
        ? createCeilingHandler({ engine, dataDir: env("BENCH_DATA_DIR"), databaseUrl: process.env.BENCH_DATABASE_URL, physical: env("BENCH_PHYSICAL"), filesPrefix: env("BENCH_FILES_PREFIX") })
        : (() => {
            throw new Error(`unknown mode "${mode}" (tabula or ceiling)`);
          })();
  let inflight = 0;
  let drained = () => {};
  const server = http.createServer((req, res) => {
    if (req.url === "/__bench/inflight") return void res.end(String(inflight));
    inflight++;
    served
      .handle(req, res)
      .catch((err: unknown) => {
        console.error("[bench server]", err);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      })
      .finally(() => --inflight === 0 && drained());
  });
  server.keepAliveTimeout = 65_000;
  let stopping = false;
  // Requests already read keep running after their client left; let them finish before the pool closes.
  const idle = () => new Promise<void>((resolve) => (inflight === 0 ? resolve() : (drained = resolve)));
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.closeAllConnections();
    server.close();
    idle()
      .then(stopProfile)
      .catch((err: unknown) => console.error("[bench server] profile not written:", err))
      .then(() => served.close())
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // The parent holds our stdin open; when it dies (even by SIGKILL) stdin ends and we go too.
  process.stdin.on("end", stop).resume();
  server.listen(0, "127.0.0.1", () => console.log(`READY ${(server.address() as AddressInfo).port}`));
};

main().catch((err) => {
  console.error("[bench server] failed to start:", err);
  process.exit(1);
});
