// The backup archive's format (docs/backups.md): a gzip'd tar whose first entry is manifest.json, then
// definition.json, then one tables/<name>.jsonl per table, then files/…. Bump FORMAT_VERSION on any change
// a reader of the previous version could misread; readers refuse versions newer than theirs.
import { z } from "zod";

export const FORMAT_VERSION = 1;
export const FORMAT_NAME = "tabula-backup";
export const MANIFEST = "manifest.json";
export const DEFINITION = "definition.json";
export const tablePart = (table: string) => `tables/${table}.jsonl`;
/** Where stored files go: `files/<table>/<stored name>`, after every table part. */
export const FILES_PREFIX = "files/";
export const filePart = (table: string, name: string) => `${FILES_PREFIX}${table}/${name}`;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const PartEntry = z.object({ path: z.string(), bytes: z.int().min(0), sha256: Sha256, rows: z.int().min(0).optional() });

export const Manifest = z.object({
  format: z.literal(FORMAT_NAME),
  version: z.int().min(1),
  engine: z.enum(["sqlite", "mysql"]),
  created_at: z.string(),
  /** The last change event included: every event after it happened after the backup's point in time (or, on MariaDB, was still being numbered). */
  event_id: z.int().min(0),
  database: z.object({ instance: z.string(), name: z.string() }),
  /** Row counts by table. */
  tables: z.record(z.string(), z.int().min(0)),
  /** Every part after the manifest, in archive order. */
  parts: z.array(PartEntry),
  /** Files rows name that the store no longer had when the backup copied them (`files/<table>/<name>`). */
  missing_files: z.array(z.string()).optional(),
});
export type Manifest = z.output<typeof Manifest>;
export type PartEntry = z.output<typeof PartEntry>;
