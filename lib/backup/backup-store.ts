// Where backup archives live. One implementation today: files under DATA_DIR/backups/<database id>/. An S3
// store would implement the same three verbs (a multipart upload from the finished file, a streamed GET, a
// DELETE) and be chosen here from the config.
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { App } from "../app-type";

export type BackupStore = {
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
    locationFor: (databaseId, backupId) => path.join(root, String(databaseId), `${backupId}.tar.gz`),
    put: async (location) => location,
    open: (location) => fs.createReadStream(location, { highWaterMark: 1 << 16 }),
    remove: async (location) => fs.rmSync(location, { force: true }),
  };
};

const stores = new WeakMap<App, BackupStore>();

export const backupStore = (app: App): BackupStore => {
  let store = stores.get(app);
  if (!store) stores.set(app, (store = localBackupStore(app.config.dataDir)));
  return store;
};
