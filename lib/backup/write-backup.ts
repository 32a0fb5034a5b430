// Takes one backup of a database into an archive file: the definition and every table's rows from one
// snapshot, and the stored files those rows name (copied batch by batch, right after the rows are read), each
// part streamed to a temporary file and hashed, then the tar.gz with manifest.json first (so a restore checks
// the version and every checksum as the parts arrive).
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { App } from "../app-type";
import type { LoadedDatabase } from "../meta/schema-cache";
import { recordColumns } from "../schema/types";
import { copyFileOut, fileNamesOf } from "./backup-files";
import { DEFINITION, filePart, FORMAT_NAME, FORMAT_VERSION, type Manifest, MANIFEST, type PartEntry, tablePart } from "./archive-format";
import { openSnapshot } from "./open-snapshot";
import { readDefinition } from "./read-definition";
import { rowLine } from "./row-codec";
import { TAR_END, tarHeader, tarPadding } from "./tar";

/**
 * Reading and encoding rows is synchronous work (better-sqlite3 reads block): after each few milliseconds of it
 * the requests waiting on this process get a turn, so a backup slows the API beside it instead of stalling it.
 */
const SLICE_MS = 4;
const timeSlice = () => {
  let since = performance.now();
  return {
    check: async () => {
      if (performance.now() - since < SLICE_MS) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    },
  };
};

export type BackupSummary = { size: number; tables: number; rows: number; eventId: number };

/** Resolves once the stream drains or closes (an error closes it), leaving no listener behind. */
const drained = (out: fs.WriteStream) =>
  new Promise<void>((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
  });

/** Writes text to a file with backpressure, hashing and counting what passes. */
const partWriter = (file: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = fs.createWriteStream(file);
  let failure: Error | undefined;
  out.on("error", (err) => (failure = err));
  const hash = createHash("sha256");
  let bytes = 0;
  return {
    write: async (text: string) => {
      if (failure) throw failure;
      const chunk = Buffer.from(text, "utf8");
      hash.update(chunk);
      bytes += chunk.length;
      if (!out.write(chunk)) await drained(out);
    },
    end: async () => {
      if (failure) throw failure;
      out.end();
      await once(out, "close");
      if (failure) throw failure;
      return { bytes, sha256: hash.digest("hex") };
    },
    /** Closes the file without finishing it (the backup stopped). */
    abandon: () => out.destroy(),
  };
};

async function* tarOf(manifest: Buffer, dir: string, parts: PartEntry[]) {
  yield tarHeader(MANIFEST, manifest.length);
  yield manifest;
  yield tarPadding(manifest.length);
  for (const part of parts) {
    yield tarHeader(part.path, part.bytes);
    for await (const chunk of fs.createReadStream(path.join(dir, part.path), { highWaterMark: 1 << 16 })) yield chunk as Buffer;
    yield tarPadding(part.bytes);
  }
  yield TAR_END;
}

/**
 * The backup of `database` into `destination` (written beside it, renamed when whole). `signal` stops it between
 * batches (the database was deleted); a stopped or failed backup leaves no file.
 */
export const writeBackup = async (app: App, database: LoadedDatabase, destination: string, signal?: AbortSignal): Promise<BackupSummary> => {
  const { schema } = database;
  const definition = await readDefinition(app, database);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-backup-"));
  const partial = `${destination}.partial`;
  const snapshot = await openSnapshot(app, schema.physical, signal);
  try {
    const parts: PartEntry[] = [];
    const fileParts: PartEntry[] = [];
    const missingFiles: string[] = [];
    const counts: Record<string, number> = {};
    const definitionText = `${JSON.stringify(definition, null, 2)}\n`;
    const def = partWriter(path.join(dir, DEFINITION));
    await def.write(definitionText);
    parts.push({ path: DEFINITION, ...(await def.end()) });
    let total = 0;
    const slice = timeSlice();
    for (const { name } of definition.tables) {
      const table = schema.tables.get(name)!;
      const columns = recordColumns(table);
      const names = columns.map((c) => c.name);
      const writer = partWriter(path.join(dir, tablePart(name)));
      let rows = 0;
      const copied = new Set<string>();
      try {
        for await (const batch of snapshot.batches(name, names)) {
          signal?.throwIfAborted();
          let text = "";
          for (let i = 0; i < batch.length; i++) {
            text += `${rowLine(columns, batch[i])}\n`;
            if (i % 64 === 63) await slice.check();
          }
          await writer.write(text);
          await slice.check();
          rows += batch.length;
          for (const stored of fileNamesOf(table, batch)) {
            if (copied.has(stored)) continue;
            copied.add(stored);
            const part = await copyFileOut(app, { databaseId: schema.id, table }, stored, dir);
            if (part) fileParts.push(part);
            else missingFiles.push(filePart(name, stored));
          }
        }
      } catch (err) {
        writer.abandon();
        throw err;
      }
      counts[name] = rows;
      total += rows;
      parts.push({ path: tablePart(name), rows, ...(await writer.end()) });
    }
    await snapshot.close();
    parts.push(...fileParts);
    const manifest: Manifest = {
      format: FORMAT_NAME,
      version: FORMAT_VERSION,
      engine: app.engine.kind,
      created_at: new Date().toISOString(),
      event_id: snapshot.eventId,
      database: { instance: schema.instance, name: schema.name },
      tables: counts,
      parts,
      ...(missingFiles.length ? { missing_files: missingFiles } : {}),
    };
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    await pipeline(tarOf(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), dir, parts), createGzip({ level: 6 }), fs.createWriteStream(partial));
    signal?.throwIfAborted();
    fs.renameSync(partial, destination);
    return { size: fs.statSync(destination).size, tables: definition.tables.length, rows: total, eventId: snapshot.eventId };
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    await snapshot.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
