// The local driver: files in a folder (DATA_DIR/files). A put streams into a temporary file beside its target,
// syncs it and renames it into place, so a reader sees the whole object or none; empty folders go with deletes.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { FileStore, StoredObject } from "./file-store";
import { checkKey, checkPrefix, TEMP_PREFIX } from "./keys";
import { meterBody } from "./meter";

const isMissing = (error: unknown) => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException)?.code ?? "");

const syncFolder = async (folder: string) => {
  const handle = await fsp.open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

export const openLocalStore = (root: string): FileStore => {
  const pathOf = (key: string) => path.join(root, ...checkKey(key).split("/"));

  /** A fresh temporary file in `folder`, making the folder when a concurrent delete just removed it. */
  const openTemp = async (folder: string) => {
    const temp = path.join(folder, `${TEMP_PREFIX}${randomBytes(9).toString("hex")}`);
    for (let attempt = 0; ; attempt++) {
      await fsp.mkdir(folder, { recursive: true });
      try {
        return { temp, handle: await fsp.open(temp, "wx", 0o600) };
      } catch (error) {
        if (!isMissing(error) || attempt >= 3) throw error;
      }
    }
  };

  /** Removes the empty folders between `folder` and the root, stopping at the first one that is not empty. */
  const pruneFolders = async (folder: string) => {
    for (let dir = folder; dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
      try {
        await fsp.rmdir(dir);
      } catch {
        return;
      }
    }
  };

  async function* walk(dir: string, keyPrefix: string, prefix: string): AsyncGenerator<StoredObject> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(TEMP_PREFIX)) continue;
      const key = keyPrefix + entry.name;
      if (entry.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix)) yield* walk(path.join(dir, entry.name), `${key}/`, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        const stat = await fsp.stat(path.join(dir, entry.name)).catch(() => undefined);
        if (stat) yield { key, size: stat.size, modified: stat.mtime };
      }
    }
  }

  return {
    kind: "local",

    async put(key, body, { maxBytes }) {
      const file = pathOf(key);
      const folder = path.dirname(file);
      const { temp, handle } = await openTemp(folder);
      const meter = meterBody(body, maxBytes);
      let failed = true;
      try {
        for await (const chunk of meter.stream as AsyncIterable<Buffer>) await handle.write(chunk);
        await handle.sync();
        await handle.close();
        await fsp.rename(temp, file);
        failed = false;
      } finally {
        meter.release(failed);
        if (failed) {
          await handle.close().catch(() => {});
          await fsp.rm(temp, { force: true });
        }
      }
      await syncFolder(folder);
      return meter.result();
    },

    async get(key, range) {
      const file = pathOf(key);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, "r");
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === "EISDIR") return null;
        throw error;
      }
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      return { body, size: stat.size };
    },

    async stat(key) {
      try {
        const stat = await fsp.stat(pathOf(key));
        return stat.isFile() ? { size: stat.size, modified: stat.mtime } : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(keys) {
      const files = keys.map(pathOf);
      for (const file of files) {
        await fsp.rm(file, { force: true });
        await pruneFolders(path.dirname(file));
      }
    },

    list(prefix) {
      checkPrefix(prefix);
      const cut = prefix.lastIndexOf("/");
      const start = cut < 0 ? "" : prefix.slice(0, cut + 1);
      return walk(start ? path.join(root, ...start.slice(0, -1).split("/")) : root, start, prefix);
    },
  };
};
