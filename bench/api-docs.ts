// The API Docs case of `npm run bench` (also alone: `npx tsx bench/api-docs.ts`): time from navigation to
// Swagger's first rendered operation, in Chromium (CHROMIUM_PATH or /usr/bin/chromium) driven by Playwright,
// against `npm start`'s server on a fresh data folder. Cold: the first visit after the server starts, in a new
// browser profile; warm: later visits in the same browser (median of BENCH_DOCS_RUNS, 5). The dashboard's
// API Docs tab and the public docs page, on a database of 8 tables. Needs a build (`npm run build`).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { freePort } from "./child";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_DOCS_RUNS || 5);
const OWNER = { email: "docs-bench@example.com", password: "docs bench password" };
const FIRST_OPERATION = ".opblock-summary";

/** `load`: the machine's 1-minute load average when the page was timed (the times are wall-clock). */
export type DocsTiming = { page: string; coldMs: number; warmMedianMs: number; warmMaxMs: number; load: number };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const waitUp = async (url: string, child: ChildProcess) => {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer ${url} within 60 s`);
};

/** `npm start`'s command on a fresh folder; refuses to build (a stale build would time the build, not the page). */
export const startServer = async () => {
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) throw new Error("no build: run `npm run build` first");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-docs-"));
  const child = spawn(process.execPath, [path.join(ROOT, "bin", "start.mjs")], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, BCRYPT_COST: "4", NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "silent" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUp(`${base}/api/v1/openapi.json`, child);
  return {
    base,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** The first-run owner, a database of 8 tables with public docs; answers the two addresses to time. */
export const prepare = async (page: Page) => {
  await page.goto("/setup");
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
  await page.getByLabel("Confirm password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/databases$/);
  const tables = ["authors", "books", "orders", "customers", "reviews", "shelves", "loans", "events"].map((name) => ({
    name,
    columns: [
      { name: "title", type: "varchar", length: 120, nullable: false },
      { name: "body", type: "text" },
      { name: "price", type: "decimal", precision: 10, scale: 2 },
      { name: "count", type: "int" },
      { name: "active", type: "boolean" },
      { name: "on_day", type: "date" },
      { name: "status", type: "dropdown", options: ["new", "done"] },
    ],
  }));
  const made = await page.request.post("/api/v1/databases", { data: { name: "Docs bench", tables } });
  if (made.status() !== 201) throw new Error(`database: ${made.status()} ${await made.text()}`);
  const instance = (await made.json()).instance as string;
  const docs = await page.request.put(`/api/v1/databases/${instance}/docs`, { data: { public: true } });
  if (docs.status() !== 200) throw new Error(`public docs: ${docs.status()} ${await docs.text()}`);
  return { tab: `/databases/${instance}/docs`, publicUrl: new URL((await docs.json()).url as string).pathname };
};

const timeTo = async (page: Page, url: string) => {
  const started = performance.now();
  await page.goto(url, { waitUntil: "commit" });
  await page.locator(FIRST_OPERATION).first().waitFor({ state: "visible", timeout: 60_000 });
  return Math.round(performance.now() - started);
};

export const benchApiDocs = async (): Promise<DocsTiming[]> => {
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const setup = await browser.newContext({ baseURL: server.base, viewport: { width: 1280, height: 800 } });
    const { tab, publicUrl } = await prepare(await setup.newPage());
    const session = await setup.storageState();
    await setup.close();
    const results: DocsTiming[] = [];
    for (const [name, url] of [["API Docs tab", tab], ["public docs page", publicUrl]] as const) {
      // A new profile: nothing cached in the browser; the server has not served this page yet.
      const context = await browser.newContext({ baseURL: server.base, viewport: { width: 1280, height: 800 }, storageState: session });
      const page = await context.newPage();
      const coldMs = await timeTo(page, url);
      const warm: number[] = [];
      for (let i = 0; i < RUNS; i++) warm.push(await timeTo(page, url));
      await context.close();
      results.push({ page: name, coldMs, warmMedianMs: median(warm), warmMaxMs: Math.max(...warm), load: Math.round(os.loadavg()[0] * 10) / 10 });
    }
    return results;
  } finally {
    await browser.close();
    await server.stop();
  }
};

export const formatApiDocs = (r: DocsTiming) => `${r.page}: first operation cold ${r.coldMs} ms, warm median ${r.warmMedianMs} ms (max ${r.warmMaxMs} ms, ${RUNS} runs; load average ${r.load} on ${os.cpus().length} cores)`;

if (import.meta.url === `file://${process.argv[1]}`) {
  benchApiDocs()
    .then((results) => results.forEach((r) => console.log(`[bench] ${formatApiDocs(r)}`)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
