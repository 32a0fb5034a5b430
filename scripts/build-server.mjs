#!/usr/bin/env node
// Bundles server.ts and lib/ into .next/tabula-server/ (ESM, packages left as imports), so `npm start` runs plain
// JavaScript instead of compiling the TypeScript through tsx on every start. Run after `next build`, which
// empties .next (npm run build's postbuild, bin/start.mjs). Dynamic imports become chunks loaded on first use.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER_DIR = path.join(root, ".next", "tabula-server");

/**
 * Modules find files beside their source (the reader thread's and the SQL console child's scripts): each
 * `import.meta.url` in the project's own code is made to name its source file again, relative to the bundle.
 */
const sourceUrls = (outdir) => ({
  name: "source-urls",
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.promises.readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join("/");
      const contents = text.replaceAll("import.meta.url", `new URL(${JSON.stringify(relative)}, import.meta.url).href`);
      return { contents, loader: /\.m?ts$/.test(args.path) ? "ts" : "js" };
    });
  },
});

/**
 * Packages stay imports from node_modules, but for kysely: its hundreds of small modules cost more to load one
 * by one than its code does to run, and nothing outside the server's own code shares its objects.
 */
const INLINED = new Set(["kysely"]);
const externals = () => {
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  return Object.keys(dependencies).filter((name) => !INLINED.has(name)).flatMap((name) => [name, `${name}/*`]);
};

/** The newest modification time of a file, or of anything in a folder; 0 when missing. `skip`: folders left out. */
export const newestMtime = (p, skip = new Set()) => {
  if (skip.has(p)) return 0;
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name), skip)), stat.mtimeMs);
};

/** What the bundle is made from: a change to any of them makes it stale. */
const BUNDLED = ["server.ts", "lib", "tsconfig.json", "package.json", "package-lock.json"];

/** The bundle's entry (`server.mjs`) when it was built after the last change to what it is made from; else undefined. */
export const currentBundle = (outdir = SERVER_DIR) => {
  const entry = path.join(outdir, "server.mjs");
  const builtAt = newestMtime(path.join(outdir, "stamp"));
  const codeAt = Math.max(...BUNDLED.map((p) => newestMtime(path.join(root, p))));
  return builtAt >= codeAt && fs.existsSync(entry) ? entry : undefined;
};

/**
 * Writes `server.mjs` (and its chunks) to `outdir`, then `stamp`: its mtime says when (currentBundle compares it).
 * Built beside it and renamed into place, so a process starting meanwhile never loads half a bundle.
 */
export const buildServer = async (outdir = SERVER_DIR) => {
  const { build } = await import("esbuild");
  const staging = `${outdir}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    await build({
      entryPoints: [path.join(root, "server.ts")],
      outdir: staging,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      external: externals(),
      sourcemap: "linked",
      tsconfig: path.join(root, "tsconfig.json"),
      plugins: [sourceUrls(staging)],
      logLevel: "warning",
    });
    fs.writeFileSync(path.join(staging, "stamp"), "");
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.renameSync(staging, outdir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  await buildServer();
  console.log(`Bundled server.ts into ${path.relative(root, SERVER_DIR)}`);
}
