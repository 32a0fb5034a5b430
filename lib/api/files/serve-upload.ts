// A write whose body is multipart/form-data: the table and verb are planned first (404, 405, a closed table's
// 403, the storage quota's 402 all come before a byte is stored: the body's length is reserved against the quota),
// then the parts are read and stored, then the one write kernel runs. The upload and the row are one unit: when
// the write is refused, what this request stored is deleted and its reservation given back; what a committed
// write replaced is deleted by the kernel after COMMIT, and its commit turned the reservation into counted bytes.
import type { App } from "../../app-type";
import { invalidField } from "../../errors";
import type { CoreRequest } from "../../http/core-types";
import { DEFAULT_FILE_MAX_BYTES } from "../../config";
import type { LoadedDatabase } from "../../meta/schema-cache";
import { predicatesFor } from "../../rls/access";
import type { Caller } from "../authenticate";
import { type DataRequest, planDataRequest } from "../data-request";
import { deleteQuietly, fileStoreOf, tablePrefix } from "./file-scope";
import { readMultipartWrite } from "./read-multipart";
import { releaseReservation, reserveStorage } from "./storage-usage";

const UPLOAD_ACTIONS = new Set(["create", "replace", "update"]);

/**
 * FILES_TEST_PAUSE_MS (tests only): waits this long between storing the files and the write, so a test can kill
 * the process there and show that the stored files stay unreachable and the sweeper removes them.
 */
const pauseForCrashTests = () => {
  const ms = Number(process.env.FILES_TEST_PAUSE_MS || 0);
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
};

export const maxFileBytes = (app: App) => app.config.fileMaxBytes ?? DEFAULT_FILE_MAX_BYTES;

/** Plans, stores the parts, then runs `write` with the record; the stored files go when `write` throws. */
export const withUpload = async <T>(
  app: App,
  req: CoreRequest,
  database: LoadedDatabase,
  caller: Caller,
  path: { name: string; idText?: string },
  write: (planned: DataRequest) => Promise<T>,
): Promise<T> => {
  const planned = planDataRequest(app, req, database, caller, path.name, path.idText, {});
  if (!UPLOAD_ACTIONS.has(planned.action)) {
    throw invalidField("body", "invalid_multipart", "multipart bodies are taken by POST /{table} and PUT or PATCH /{table}/{id}");
  }
  predicatesFor(planned.access, planned.index.table.name, planned.action === "create" ? "insert" : "update");
  const scope = planned.files ?? { store: fileStoreOf(app), prefix: tablePrefix(database.schema.id, planned.index.table.id), instance: database.schema.instance, databaseId: database.schema.id };
  const declared = Number(req.header("content-length") ?? 0);
  let reservation = await reserveStorage(app, database, declared);
  try {
    const upload = await readMultipartWrite({
      stream: req.bodyStream!,
      contentType: req.header("content-type") ?? "",
      index: planned.index,
      scope,
      maxBytes: maxFileBytes(app),
    });
    try {
      await pauseForCrashTests();
      // A body without a Content-Length is reserved once it is stored.
      if (!declared && upload.bytes) reservation = await reserveStorage(app, database, upload.bytes);
      return await write({ ...planned, body: upload.body, files: { ...scope, reservation } });
    } catch (err) {
      await deleteQuietly(scope.store, upload.keys);
      throw err;
    }
  } catch (err) {
    await releaseReservation(app, reservation);
    throw err;
  }
};
