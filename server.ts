// Production server: /v1/* and /api/v1/* go straight to the cores on node:http (no Next.js request
// overhead); every other path (the dashboard) goes to Next.
import http from "node:http";
import path from "node:path";
import next from "next";
import { getApp } from "./lib/app";
import { createSessionResolver } from "./lib/auth/resolve-session";
import { createNodeHandler } from "./lib/http/node-adapter";

const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || "0.0.0.0";
const dev = process.env.NODE_ENV !== "production";

const main = async () => {
  const app = await getApp();
  const nextApp = next({ dev, dir: path.resolve(import.meta.dirname), hostname, port });
  await nextApp.prepare();
  const handleNext = nextApp.getRequestHandler();
  const handleCore = createNodeHandler(app, createSessionResolver(app));
  const server = http.createServer(async (req, res) => {
    try {
      if (await handleCore(req, res)) return;
      await handleNext(req, res);
    } catch (err) {
      console.error("[tabula] request failed:", err);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "internal", message: "The server failed to handle this request." }));
    }
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, hostname, () => {
    console.log(`Tabula ready on http://localhost:${port} (${app.config.engine}${app.config.engine === "sqlite" ? `, data in ${app.config.dataDir}` : ""})`);
  });
  const stop = () => server.close(() => app.close().finally(() => process.exit(0)));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
};

main().catch((err) => {
  console.error("[tabula] failed to start:", err);
  process.exit(1);
});
