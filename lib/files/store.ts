// The file store callers use: the driver interface (file-store.ts) and the choice of driver from the install's
// configuration. Keys are opaque to the store; callers decide them (keys.ts refuses the dangerous ones).
import path from "node:path";
import type { Config } from "../config";
import type { FileStore } from "./file-store";
import { openLocalStore } from "./local-store";
import { openS3Store } from "./s3-store";

export { FileTooLarge, type FileStore, type StoredObject } from "./file-store";

/** Files live in the S3-compatible bucket when S3_BUCKET is set, otherwise under DATA_DIR/files. */
export const openFileStore = (config: Pick<Config, "dataDir" | "s3">): FileStore =>
  config.s3 ? openS3Store(config.s3) : openLocalStore(path.join(config.dataDir, "files"));
