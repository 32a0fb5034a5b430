// The data API's resumable uploads, /v1/{db}/_uploads[/{id}]: authorized like writes (a key that may write, or a
// JWT user of the database), counted against the plan's request rate, then handed to tus (lib/files/tus.ts) with
// the raw request, so an upload's bytes stream to disk instead of being read as a JSON body.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { App } from "../app-type";
import { ApiError, methodNotAllowed, notFound } from "../errors";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import { errorResponse } from "../http/error-response";
import { loadDatabase } from "../meta/load-schema";
import { INSTANCE_RE } from "../schema/names";
import { type UploadTarget, uploadsOf } from "../files/tus";
import { authenticate } from "./authenticate";
import { checkStorageRoom } from "./files/storage-usage";

const UPLOAD_PATH = /^\/v1\/([^/]+)\/_uploads(?:\/([^/]*))?\/?$/;

/** True for /v1/{db}/_uploads and /v1/{db}/_uploads/{id}. */
export const isUploadPath = (pathname: string) => UPLOAD_PATH.test(pathname);

/** Who may upload: the same checks as a write, answering the target tus records on the upload. */
export const authorizeUpload = async (app: App, req: CoreRequest): Promise<UploadTarget> => {
  const instance = UPLOAD_PATH.exec(req.pathname)?.[1] ?? "";
  await app.sync();
  const database = INSTANCE_RE.test(instance) ? await loadDatabase(app, instance) : undefined;
  const corsOrigins = database?.auth?.cors_origins;
  if (req.method === "OPTIONS") return { database: instance, actor: "preflight", corsOrigins };
  if (req.method === "GET") throw methodNotAllowed(["POST", "HEAD", "PATCH", "DELETE", "OPTIONS"]);
  const caller = await authenticate(app, req, database);
  if (!database) throw notFound(`Database "${instance}" was not found.`);
  if (caller.kind === "key" && caller.role === "viewer") {
    throw new ApiError("forbidden", "This key's account is a viewer of this database: it may read, not upload.");
  }
  const perSecond = database.requestsPerSecond;
  if (perSecond !== null) {
    const decision = await app.limitRequests(database.schema.ownerId, perSecond);
    if (!decision.allowed) {
      throw new ApiError("rate_limited", `This database's account allows ${perSecond} requests per second on its plan; retry in ${decision.reset} s.`, {
        headers: { "Retry-After": String(decision.reset) },
      });
    }
  }
  // A creation declaring more bytes than the plan has room for is refused before anything is stored.
  const declared = req.method === "POST" ? Number(req.header("upload-length")) : NaN;
  if (Number.isSafeInteger(declared) && declared > 0) await checkStorageRoom(app, database, declared);
  return { database: database.schema.instance, actor: caller.kind === "key" ? `key:${caller.keyId}` : `user:${caller.userId}`, corsOrigins };
};

/** node:http: authorizes from the headers (the body is left unread), then lets tus answer. */
export const handleUploadRequest = async (app: App, core: CoreRequest, req: IncomingMessage, res: ServerResponse, send: (out: CoreResponse) => void) => {
  let target: UploadTarget;
  try {
    target = await authorizeUpload(app, core);
  } catch (error) {
    req.resume();
    return send(errorResponse(error, core.requestId));
  }
  await uploadsOf(app.config).handle(req, res, target);
};

/** Next route handlers: the same, for a web Request. */
export const handleUploadWebRequest = async (app: App, core: CoreRequest, request: Request): Promise<Response | CoreResponse> => {
  try {
    return await uploadsOf(app.config).handleWeb(request, await authorizeUpload(app, core));
  } catch (error) {
    return errorResponse(error, core.requestId);
  }
};
