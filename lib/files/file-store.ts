// The file store's contract: the one interface every storage driver (a local folder, an S3-compatible bucket)
// implements, and the error a body over its limit fails with. Drivers import this file; callers import store.ts.
import { ApiError } from "../errors";

export type StoredObject = { key: string; size: number; modified: Date };

export interface FileStore {
  readonly kind: "local" | "s3";
  /** Streams body into `key`; the object becomes visible only once complete (atomic). Rejects with FileTooLarge (413) past maxBytes while streaming, leaving nothing. */
  put(key: string, body: NodeJS.ReadableStream, opts: { contentType: string; maxBytes?: number }): Promise<{ size: number; sha256: string }>;
  /** null when absent. range inclusive. `size` is the whole object's size, with or without a range. */
  get(key: string, range?: { start: number; end: number }): Promise<{ body: NodeJS.ReadableStream; size: number } | null>;
  stat(key: string): Promise<{ size: number; modified: Date } | null>;
  delete(keys: string[]): Promise<void>; // missing keys are fine
  list(prefix: string): AsyncIterable<StoredObject>; // for the sweeper and usage
}

/** A body longer than the limit given to `put`: 413, and nothing is stored. */
export class FileTooLarge extends ApiError {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super("payload_too_large", `The file is larger than ${maxBytes} bytes.`, { extra: { max_bytes: maxBytes } });
    this.maxBytes = maxBytes;
  }
}
