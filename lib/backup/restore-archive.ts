// Restores an archive (docs/backups.md) into a new database while it streams in: the manifest first (format and
// version), then the definition (checksum, then every part parsed), then each table's rows in batches, each
// part's checksum and row count checked at its end, then the stored files into the new database's keys, and
// every part the manifest lists required. Any problem is a 422 naming it, and the database made so far is
// deleted with the files stored for it: a refused restore leaves nothing.
import { recountStorage } from "../api/files/storage-usage";
import { isFile } from "../schema/type-traits";
import { createHash } from "node:crypto";
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import type { Ctx, DbCtx } from "../meta/context";
import { filesOf } from "../schema/file-value";
import { recordColumns, type TableDef } from "../schema/types";
import { deleteDatabase } from "../services/databases/delete-database";
import { databaseCtx } from "../services/databases/database-ctx";
import { getDatabase } from "../services/databases/get-database";
import { DEFINITION, FILES_PREFIX, FORMAT_NAME, FORMAT_VERSION, Manifest, MANIFEST, type PartEntry, tablePart } from "./archive-format";
import { fileEntryTarget, restoreFile } from "./backup-files";
import { claimName } from "./claim-name";
import { createFromDefinition, parseDefinition } from "./create-from-definition";
import { decodeValue } from "./row-codec";
import { openRowSink, type RowSink } from "./row-sink";
import { archiveProblem, readTar, type TarEntry } from "./tar";

const MAX_DEFINITION_BYTES = 32 * 1024 * 1024;
const BATCH_ROWS = 1_000;
const BATCH_BYTES = 1 << 20;

const readWhole = async (entry: TarEntry, max: number) => {
  if (entry.size > max) throw archiveProblem(`${entry.name} is larger than ${max} bytes.`);
  const chunks: Buffer[] = [];
  for await (const chunk of entry.body) chunks.push(chunk);
  return Buffer.concat(chunks);
};

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const parseJson = (bytes: Buffer, name: string): unknown => {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw archiveProblem(`${name} is not valid JSON.`);
  }
};

const readManifest = async (entry: TarEntry | undefined): Promise<Manifest> => {
  if (!entry || entry.name !== MANIFEST) throw archiveProblem("Not a Tabula backup: the archive does not start with manifest.json.");
  const raw = parseJson(await readWhole(entry, 16 * 1024 * 1024), MANIFEST) as { format?: unknown; version?: unknown };
  if (raw?.format !== FORMAT_NAME) throw archiveProblem(`Not a Tabula backup: manifest.json's format is ${JSON.stringify(raw?.format)}, not "${FORMAT_NAME}".`);
  if (typeof raw.version === "number" && raw.version > FORMAT_VERSION) {
    throw archiveProblem(`The archive's format version ${raw.version} is newer than this server reads (${FORMAT_VERSION}); upgrade Tabula to restore it.`);
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) throw archiveProblem(`manifest.json is damaged: ${parsed.error.issues[0].path.join(".")} ${parsed.error.issues[0].message}.`);
  return parsed.data;
};

/** The content type of each stored file the restored rows name, by `<table>/<stored name>`. */
type FileTypes = Map<string, string>;

/** Streams one table's JSON lines into the sink, hashing the bytes; checks the checksum and row count at the end. */
const restoreTable = async (entry: TarEntry, part: PartEntry, table: TableDef, sink: RowSink, engine: DbCtx["app"]["engine"]["kind"], fileTypes: FileTypes) => {
  const columns = recordColumns(table);
  const names = columns.map((c) => c.name);
  const hash = createHash("sha256");
  let rest = "";
  let batch: unknown[][] = [];
  let batchBytes = 0;
  let rows = 0;
  const flush = async () => {
    if (batch.length) await sink.insert(table.name, names, batch);
    batch = [];
    batchBytes = 0;
  };
  const take = async (line: string) => {
    if (!line) return;
    rows++;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line);
    } catch {
      throw archiveProblem(`${entry.name}, row ${rows}: not valid JSON (the archive is damaged).`);
    }
    const values: unknown[] = [];
    for (const column of columns) {
      const decoded = decodeValue(engine, column, record[column.name] === undefined ? null : record[column.name]);
      if (!("value" in decoded)) throw archiveProblem(`${entry.name}, row ${rows}: ${decoded.column} ${decoded.message}.`);
      values.push(decoded.value);
      if (isFile(column)) for (const f of filesOf(decoded.value)) fileTypes.set(`${table.name}/${f.name}`, f.type);
    }
    batch.push(values);
    batchBytes += line.length;
    if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
  };
  for await (const chunk of entry.body) {
    hash.update(chunk);
    const text = rest + chunk.toString("utf8");
    const lines = text.split("\n");
    rest = lines.pop()!;
    for (const line of lines) await take(line);
  }
  await take(rest);
  await flush();
  if (hash.digest("hex") !== part.sha256) throw archiveProblem(`${entry.name} does not match its checksum in manifest.json (the archive is damaged).`);
  if (part.rows !== undefined && rows !== part.rows) throw archiveProblem(`${entry.name} holds ${rows} rows; manifest.json says ${part.rows}.`);
};

/** A multi-byte character split across chunks would decode wrongly: cut chunks only after a newline. */
async function* lineAligned(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  for await (const chunk of source) {
    const all = carry ? Buffer.concat([carry, chunk]) : chunk;
    const cut = all.lastIndexOf(10);
    if (cut === -1) {
      carry = all;
      continue;
    }
    carry = all.subarray(cut + 1);
    yield all.subarray(0, cut + 1);
  }
  if (carry?.length) yield carry;
}

export type RestoreInput = { name: string; archive: AsyncIterable<Uint8Array> };

/** POST /databases/restore?name=: the archive as the body, a new database in the caller's workspace (201). */
export const restoreArchive = async (ctx: Ctx, { name, archive }: RestoreInput) => {
  const claim = await claimName(ctx, name);
  let instance: string | undefined;
  let sink: RowSink | undefined;
  try {
    const gunzip = createGunzip();
    const source = Readable.from(archive).pipe(gunzip);
    const entries = readTar(gunzipErrors(source));
    const next = async () => (await entries.next()).value as TarEntry | undefined;
    const manifest = await readManifest(await next());
    const parts = new Map(manifest.parts.map((p) => [p.path, p]));
    const defEntry = await next();
    if (!defEntry || defEntry.name !== DEFINITION || !parts.has(DEFINITION)) throw archiveProblem("The archive has no definition.json after its manifest.");
    const defBytes = await readWhole(defEntry, MAX_DEFINITION_BYTES);
    if (sha256(defBytes) !== parts.get(DEFINITION)!.sha256) throw archiveProblem("definition.json does not match its checksum in manifest.json (the archive is damaged).");
    const definition = parseDefinition(parseJson(defBytes, DEFINITION) as Record<string, unknown>);
    for (const t of definition.tables) {
      if (!parts.has(tablePart(t.name))) throw archiveProblem(`manifest.json lists no part for table ${t.name}.`);
    }
    let db: DbCtx = await createFromDefinition(ctx, name, definition, async (made) => {
      instance = made;
      await claim.attach(made);
    });
    sink = await openRowSink(ctx.app, db.database.schema.physical);
    const seen = new Set([DEFINITION]);
    const fileTypes: FileTypes = new Map();
    for (let entry = await next(); entry; entry = await next()) {
      const part = parts.get(entry.name);
      if (!part || seen.has(entry.name)) throw archiveProblem(`The archive holds ${entry.name}, which manifest.json does not list.`);
      seen.add(entry.name);
      if (entry.name.startsWith(FILES_PREFIX)) {
        const { table, name: stored } = fileEntryTarget(entry.name, db.database.schema.tables);
        const type = fileTypes.get(`${table.name}/${stored}`) ?? "application/octet-stream";
        await restoreFile(ctx.app, { databaseId: db.database.schema.id, table }, stored, entry.body, part, type);
        continue;
      }
      const table = db.database.schema.tables.get(entry.name.replace(/^tables\//, "").replace(/\.jsonl$/, ""));
      if (!table || entry.name !== tablePart(table.name)) throw archiveProblem(`${entry.name} names no table of the definition.`);
      await restoreTable({ ...entry, body: lineAligned(entry.body) }, part, table, sink, ctx.app.engine.kind, fileTypes);
    }
    const missing = manifest.parts.filter((p) => !seen.has(p.path)).map((p) => p.path);
    if (missing.length) throw archiveProblem(`The archive is cut short: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing.`);
    await sink.close();
    sink = undefined;
    db = await databaseCtx(ctx, db.database.schema.instance);
    await recountStorage(ctx.app, db.database.schema.instance);
    return getDatabase(db, { instance: db.database.schema.instance });
  } catch (err) {
    await sink?.close().catch(() => undefined);
    if (instance) {
      const made = await databaseCtx(ctx, instance).catch(() => undefined);
      if (made) await deleteDatabase(made, { instance });
    }
    throw err;
  } finally {
    await claim.release();
  }
};

/** zlib's own errors (not gzip, truncated) as the 422s they are. */
async function* gunzipErrors(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source) yield chunk;
  } catch (err) {
    const code = (err as { code?: string }).code ?? "";
    if (code === "Z_BUF_ERROR" || /unexpected end/i.test(String((err as Error).message))) throw archiveProblem("The archive is cut short (its gzip stream ends early).");
    if (code.startsWith("Z_")) throw archiveProblem("Not a Tabula backup: the body is not a gzip'd archive.");
    throw err;
  }
}
