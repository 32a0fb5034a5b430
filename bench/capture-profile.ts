// In the bench server child: a CPU profile of the measured window only (started by SIGUSR2 after warm-up,
// not from process start, so module loading and JIT warm-up stay out of it), written on stop together with
// the source maps of the project's files. tsx runs minified, name-less code; the maps recover names and lines.
import fs from "node:fs";
import { findSourceMap } from "node:module";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");

const projectFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? projectFiles(full) : e.name.endsWith(".ts") ? [full] : [];
  });

/** Returns a function that stops the profile (if one was started) and writes it into `dir`. */
export const armProfiler = (dir: string) => {
  const session = new Session();
  let started: Promise<unknown> | undefined;
  process.on("SIGUSR2", () => {
    session.connect();
    started ??= session.post("Profiler.enable").then(() => session.post("Profiler.start"));
  });
  return async () => {
    if (!started) return;
    await started;
    const { profile } = await session.post("Profiler.stop");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "server.cpuprofile"), JSON.stringify(profile));
    const maps: Record<string, unknown> = {};
    for (const file of [...projectFiles(path.join(ROOT, "lib")), ...projectFiles(path.join(ROOT, "bench"))]) {
      const url = pathToFileURL(file).href;
      const map = findSourceMap(url);
      if (map) maps[url] = map.payload;
    }
    fs.writeFileSync(path.join(dir, "sourcemaps.json"), JSON.stringify(maps));
  };
};
