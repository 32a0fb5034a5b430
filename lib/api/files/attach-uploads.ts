// A JSON write that attaches finished resumable uploads: `{"<col>": {"upload": "<id>"}}` on a file column. Each
// upload is taken (its database's, and the caller's), sniffed, checked against the column's `accept` and size
// limit, and stored under the table's prefix with a stored name before the write; then it becomes the column's
// FileInput. When the write is refused the stored copies go (the tus upload itself is removed once stored).
import type { App } from "../../app-type";
import { invalidField } from "../../errors";
import { storedFileName } from "../../files/safe-name";
import { sniffBody } from "../../files/sniff-type";
import { uploadsOf } from "../../files/tus";
import { accepts } from "../../schema/file-options";
import { FileInput } from "../../schema/file-value";
import { isFile } from "../../schema/type-traits";
import type { DataRequest } from "../data-request";
import { deleteQuietly, fileKey } from "./file-scope";
import { maxFileBytes } from "./serve-upload";
import { releaseReservation, reserveStorage } from "./storage-usage";
import type { LoadedDatabase } from "../../meta/schema-cache";

/** Moves the bytes of `others` into `into`, in one transaction. */
const foldReservations = (app: App, into: number, others: number[]) =>
  app.engine.meta.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom("file_reservations").select("bytes").where("id", "in", others).execute();
    const bytes = rows.reduce((sum, row) => sum + Number(row.bytes), 0);
    await trx.updateTable("file_reservations").set((eb) => ({ bytes: eb("bytes", "+", bytes) })).where("id", "=", into).execute();
    await trx.deleteFrom("file_reservations").where("id", "in", others).execute();
  });

const uploadId = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) && typeof (v as { upload?: unknown }).upload === "string" ? (v as { upload: string }).upload : undefined;

/** Who may attach an upload: the key or user that made it (UploadTarget.actor). */
const actorOf = (r: DataRequest) => (r.caller.kind === "user" ? `user:${r.caller.userId}` : `key:${r.caller.keyId}`);

/**
 * Runs `write` with every `{"upload": id}` of a file column attached; a table without file columns, or a body
 * without uploads, goes as it is. What was stored for the write is deleted when it is refused.
 */
export const withAttachedUploads = async <T>(app: App, database: LoadedDatabase, r: DataRequest, write: (r: DataRequest) => Promise<T>): Promise<T> => {
  if (!r.files || r.body === undefined || r.body === null || typeof r.body !== "object") return write(r);
  const scope = r.files;
  const records = (Array.isArray(r.body) ? r.body : [r.body]).filter((b): b is Record<string, unknown> => !!b && typeof b === "object" && !Array.isArray(b));
  const asked = records.flatMap((record) => Object.entries(record).filter(([name, v]) => uploadId(v) !== undefined && isFile(r.index.byName.get(name) ?? { type: "int" })).map(([name, v]) => ({ record, name, id: uploadId(v)! })));
  if (!asked.length) return write(r);
  const keys: string[] = [];
  const reservations: number[] = [];
  try {
    const uploads = uploadsOf(app.config as Parameters<typeof uploadsOf>[0]);
    for (const { record, name, id } of asked) {
      const column = r.index.byName.get(name)!;
      const taken = await uploads.takeUpload(r.schema.instance, id, actorOf(r));
      const reserved = await reserveStorage(app, database, taken.size);
      if (reserved !== undefined) reservations.push(reserved);
      const { type, body } = await sniffBody(taken.body);
      if (!accepts(column, type)) {
        (body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        throw invalidField(name, "type_not_accepted", `"${name}" accepts ${column.accept!.join(", ")}; this file is ${type}`);
      }
      const stored = storedFileName(taken.name ?? "file");
      const key = fileKey(scope, stored);
      keys.push(key);
      const put = await scope.store.put(key, body, { contentType: type, maxBytes: Math.min(column.max_size ?? maxFileBytes(app), maxFileBytes(app)) });
      await taken.remove();
      record[name] = new FileInput([{ name: stored, size: put.size, type }], { append: column.multiple === true });
    }
    // One reservation travels with the write; the others (a body attaching several uploads) are folded into it.
    const [reservation, ...rest] = reservations;
    if (rest.length) await foldReservations(app, reservation, rest);
    reservations.splice(1);
    return await write({ ...r, files: { ...scope, reservation } });
  } catch (err) {
    await deleteQuietly(scope.store, keys);
    for (const id of reservations) await releaseReservation(app, id);
    throw err;
  }
};
