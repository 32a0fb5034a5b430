// Where backup archives live: files under DATA_DIR/backups/<database id>/, or, when the install stores its files
// in S3 (S3_BUCKET), objects `backups/<database id>/<backup id>.tar.gz` of that bucket (BACKUP_STORE=local keeps
// them on disk anyway). A backup is always written to the local path first (whole, checksummed); the S3 store
// then uploads it (multipart past 8 MiB) and removes the local copy. An archive still on disk (taken before the
// install moved to S3) is read from there.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { App } from "../app-type";
import { fileStoreOf } from "../api/files/file-scope";
import type { FileStore } from "../files/store";

export type BackupStore = {
  kind: "local" | "s3";
  /** Where writeBackup writes the archive for a new backup (a local path the store then takes over). */
  locationFor: (databaseId: number, backupId: number) => string;
  /** Takes the finished archive file into the store; answers its location. */
  put: (location: string) => Promise<string>;
  open: (location: string) => Readable;
  remove: (location: string) => Promise<void>;
};

export const localBackupStore = (dataDir: string): BackupStore => {
  const root = path.join(dataDir, "backups");
  return {
    kind: "local",
    locationFor: (databaseId, backupId) => path.join(root, String(databaseId), `${backupId}.tar.gz`),
    put: async (location) => location,
    open: (location) => fs.createReadStream(location, { highWaterMark: 1 << 16 }),
    remove: async (location) => fs.rmSync(location, { force: true }),
  };
};

/** The bucket's key of an archive: its path under DATA_DIR (`backups/12/34.tar.gz`). */
export const backupKey = (dataDir: string, location: string) => path.relative(dataDir, location).split(path.sep).join("/");

export const s3BackupStore = (dataDir: string, bucket: FileStore): BackupStore => {
  const local = localBackupStore(dataDir);
  const key = (location: string) => backupKey(dataDir, location);
  async function* fromBucket(location: string) {
    const object = await bucket.get(key(location));
    if (!object) throw new Error(`the archive ${key(location)} is missing from the bucket`);
    yield* object.body as AsyncIterable<Buffer>;
  }
  return {
    kind: "s3",
    locationFor: local.locationFor,
    put: async (location) => {
      try {
        await bucket.put(key(location), fs.createReadStream(location, { highWaterMark: 1 << 20 }), { contentType: "application/gzip" });
      } finally {
        // Uploaded or failed (the backup then ends failed), the local copy goes.
        fs.rmSync(location, { force: true });
      }
      return location;
    },
    open: (location) => (fs.existsSync(location) ? local.open(location) : Readable.from(fromBucket(location))),
    remove: async (location) => {
      fs.rmSync(location, { force: true });
      await bucket.delete([key(location)]);
    },
  };
};

const stores = new WeakMap<App, BackupStore>();

export const backupStore = (app: App): BackupStore => {
  let store = stores.get(app);
  if (!store) {
    const toS3 = app.config.s3 !== undefined && process.env.BACKUP_STORE !== "local";
    store = toS3 ? s3BackupStore(app.config.dataDir, fileStoreOf(app)) : localBackupStore(app.config.dataDir);
    stores.set(app, store);
  }
  return store;
};
