// The schemas of file columns in the data API's document: the File object a record holds, and what a JSON body
// may send for a file column. Apart from the paths (file-paths.ts) so the table schemas can use them.
import type { ColumnDef } from "../schema/types";

type Json = Record<string, unknown>;

export const EXAMPLE_FILE = { name: "photo_k2m9x7ab.png", size: 48213, type: "image/png", url: "/v1/db_abc/photos/1/image/photo_k2m9x7ab.png" };

export const FILE_SCHEMA: Json = {
  type: "object",
  description: "A stored file: its stored name (the client's name made safe, plus a random suffix), size in bytes, MIME type sniffed from its bytes, and download path.",
  properties: {
    name: { type: "string", example: "photo_k2m9x7ab.png" },
    size: { type: "integer", minimum: 0, example: 48213 },
    type: { type: "string", example: "image/png" },
    url: { type: "string", example: "/v1/db_abc/photos/1/image/photo_k2m9x7ab.png" },
  },
  required: ["name", "size", "type", "url"],
};

const UPLOAD_REF = { type: "object", properties: { upload: { type: "string", description: "A finished tus upload's id (`/_uploads`)." } }, required: ["upload"], additionalProperties: false };

/** What a JSON body may give a file column: null, a tus upload to attach, or (multiple) the stored names to keep. */
export const fileInputSchema = (col: ColumnDef): Json => ({
  description: `File column${col.multiple ? " (multiple)" : ""}: upload with multipart/form-data; in JSON, null clears it, \`{"upload": id}\` attaches a finished tus upload${col.multiple ? ", an array of stored names keeps those files only" : ""}.`,
  oneOf: [{ type: "null" }, UPLOAD_REF, ...(col.multiple ? [{ type: "array", items: { type: "string" }, maxItems: 99 }] : [])],
});

