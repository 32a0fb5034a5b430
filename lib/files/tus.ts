// Resumable uploads: tus 1.0 (@tus/server) at /v1/{db}/_uploads, kept under DATA_DIR/uploads or, with S3, in the
// bucket under _uploads/. Each upload records its database and the caller that made it; only that caller, on that
// database, may resume, inspect or end it. A finished upload is taken once (takeUpload) to become a column's file;
// any upload not taken within 24 hours is removed by expireUploads.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { Readable } from "node:stream";
import type { DataStore, Locker, MemoryKvStore, Server, ServerOptions, Upload } from "@tus/server";
import type { FileStore as TusFileStore } from "@tus/file-store";
import type { Config } from "../config";
import { ApiError } from "../errors";
import { openS3Store } from "./s3-store";

export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** The largest upload when the caller names no limit. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024 * 1024;

/** Who sends a request, and to which database: `actor` is e.g. "key:12" or "user:7"; `corsOrigins` the database's. */
export type UploadTarget = { database: string; actor: string; corsOrigins?: readonly string[] };

export type TakenUpload = {
  body: Readable;
  size: number;
  /** The client's `filename` and `filetype` metadata, when it sent them (never trusted for the type). */
  name?: string;
  type?: string;
  /** Deletes the upload; call it once the file is stored. */
  remove: () => Promise<void>;
};

export type Uploads = {
  /** Serves one tus request (POST, HEAD, PATCH, DELETE, OPTIONS) already authorized for `target`. */
  handle: (req: IncomingMessage, res: ServerResponse, target: UploadTarget) => Promise<void>;
  /** The same for a web Request (Next route handlers). */
  handleWeb: (request: Request, target: UploadTarget) => Promise<Response>;
  /** A finished upload of `database` (and of `actor`, when given) to attach; 422 on `upload` otherwise. */
  takeUpload: (database: string, uploadId: string, actor?: string) => Promise<TakenUpload>;
  /** Removes every upload older than the TTL, finished or not; answers how many. */
  expireUploads: (now?: Date) => Promise<number>;
};

const ID_RE = /^[0-9a-f]{32}$/;

const uploadProblem = (message: string) =>
  new ApiError("validation_failed", message, { errors: [{ field: "upload", code: "invalid_upload", message }] });

const opened = new WeakMap<object, Uploads>();
/** The process's uploads for a config (one tus locker and datastore per install). */
export const uploadsOf = (config: Pick<Config, "dataDir" | "s3">): Uploads => {
  let uploads = opened.get(config);
  if (!uploads) opened.set(config, (uploads = openUploads(config)));
  return uploads;
};

export const openUploads = (config: Pick<Config, "dataDir" | "s3">, options: { maxBytes?: number; ttlMs?: number } = {}): Uploads => {
  const ttlMs = options.ttlMs ?? UPLOAD_TTL_MS;
  const maxBytes = options.maxBytes ?? UPLOAD_MAX_BYTES;
  // With S3, uploads live in the files bucket under _uploads/ (a prefix no file key has); the URL shows the bare id.
  const idPrefix = config.s3 ? "_uploads/" : "";
  type Opened = { store: DataStore; locker: Locker; Server: typeof Server; s3Cache?: MemoryKvStore<never> };
  let opened: Promise<Opened> | undefined;
  /** tus and its store load on the first upload request, not at start. */
  const open = () =>
    (opened ??= (async (): Promise<Opened> => {
      const tus = await import("@tus/server");
      const locker = new tus.MemoryLocker();
      if (!config.s3) {
        const { FileStore } = await import("@tus/file-store");
        return { locker, Server: tus.Server, store: new FileStore({ directory: path.join(config.dataDir, "uploads"), expirationPeriodInMilliseconds: ttlMs }) };
      }
      const { S3Store } = await import("@tus/s3-store");
      const s3 = config.s3;
      // The S3 store's cache of upload metadata, held here so a removed upload leaves it too.
      const s3Cache = new tus.MemoryKvStore<never>();
      const store = new S3Store({
        partSize: 8 * 1024 * 1024,
        cache: s3Cache,
        expirationPeriodInMilliseconds: ttlMs,
        s3ClientConfig: {
          bucket: s3.bucket,
          region: s3.region,
          endpoint: s3.endpoint,
          forcePathStyle: s3.forcePathStyle,
          credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
        },
      });
      return { locker, Server: tus.Server, store, s3Cache };
    })());

  const getUpload = async (store: DataStore, id: string): Promise<Upload | undefined> => {
    try {
      return await store.getUpload(id);
    } catch {
      return undefined;
    }
  };

  // @tus/s3-store's remove aborts the multipart upload first, which S3 refuses (NoSuchUpload) once it completed,
  // and then deletes nothing; a finished upload's objects are deleted here.
  const bucket = config.s3 ? openS3Store(config.s3) : undefined;
  const removeUpload = async ({ store, s3Cache }: Opened, id: string) => {
    try {
      await store.remove(id);
    } catch (error) {
      if (!bucket) throw error;
    }
    await bucket?.delete([id, `${id}.info`, `${id}.part`]);
    await s3Cache?.delete(id);
  };

  const notFound = { status_code: 404, body: "Upload not found\n" };
  const serverFor = async (target: UploadTarget) => {
    const { store, locker, Server } = await open();
    const base = `/v1/${target.database}/_uploads`;
    const tusOptions: ServerOptions & { datastore: DataStore } = {
      path: base,
      datastore: store,
      locker,
      relativeLocation: true,
      allowedHeaders: ["authorization", "x-api-key"],
      allowedOrigins: (origin) => !!target.corsOrigins && (target.corsOrigins.includes("*") || target.corsOrigins.includes(origin)),
      maxSize: maxBytes,
      namingFunction: () => idPrefix + randomBytes(16).toString("hex"),
      generateUrl: (_req, { id }) => `${base}/${id.slice(idPrefix.length)}`,
      getFileIdFromRequest: (req) => {
        const last = new URL(req.url).pathname.split("/").pop() ?? "";
        return ID_RE.test(last) ? idPrefix + last : undefined;
      },
      onUploadCreate: async (_req, upload) => ({ metadata: { ...upload.metadata, database: target.database, actor: target.actor } }),
      onIncomingRequest: async (req, id) => {
        if (req.method === "POST") return;
        const upload = await getUpload(store, id);
        if (upload && (upload.metadata?.database !== target.database || upload.metadata?.actor !== target.actor)) throw notFound;
      },
    };
    return new Server(tusOptions);
  };

  const taking = new Set<string>();

  return {
    handle: async (req, res, target) => (await serverFor(target)).handle(req, res),
    handleWeb: async (request, target) => (await serverFor(target)).handleWeb(request),

    takeUpload: async (database, uploadId, actor) => {
      if (typeof uploadId !== "string" || !ID_RE.test(uploadId)) throw uploadProblem("upload must be the id of a finished upload.");
      const tus = await open();
      const { store } = tus;
      const id = idPrefix + uploadId;
      const upload = await getUpload(store, id);
      if (!upload || upload.metadata?.database !== database || (actor !== undefined && upload.metadata?.actor !== actor)) {
        throw uploadProblem(`No upload ${uploadId} of this database (uploads expire after 24 hours and are used once).`);
      }
      if (upload.size === undefined || upload.offset !== upload.size) {
        throw uploadProblem(`Upload ${uploadId} is not finished: ${upload.offset} of ${upload.size ?? "?"} bytes arrived.`);
      }
      if (taking.has(id)) throw uploadProblem(`Upload ${uploadId} is already being attached.`);
      taking.add(id);
      try {
        // Both stores tus is given here (@tus/file-store, @tus/s3-store) read an upload back; DataStore's type omits it.
        const body = await (store as DataStore & { read: (id: string) => Readable | Promise<Readable> }).read(id);
        return {
          body,
          size: upload.size,
          name: upload.metadata?.filename ?? undefined,
          type: upload.metadata?.filetype ?? undefined,
          remove: async () => {
            try {
              await removeUpload(tus, id);
            } finally {
              taking.delete(id);
            }
          },
        };
      } catch (error) {
        taking.delete(id);
        throw error;
      }
    },

    expireUploads: async (now = new Date()) => {
      const tus = await open();
      const { store } = tus;
      const ids: string[] = [];
      if (config.s3) {
        await store.deleteExpired(); // multipart uploads S3 never finished
        for await (const o of bucket!.list(idPrefix)) if (o.key.endsWith(".info")) ids.push(o.key.slice(0, -".info".length));
      } else {
        ids.push(...((await (store as TusFileStore).configstore.list?.()) ?? []));
      }
      let removed = 0;
      for (const id of ids) {
        const upload = await getUpload(store, id);
        const created = upload?.creation_date ? Date.parse(upload.creation_date) : NaN;
        if (!upload || !(created + ttlMs < now.getTime()) || taking.has(id)) continue;
        await removeUpload(tus, id).catch(() => undefined);
        removed++;
      }
      return removed;
    },
  };
};
