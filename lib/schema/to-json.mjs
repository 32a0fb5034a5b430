// How a value read from either driver becomes its JSON value, per column type. Plain JavaScript: the reader
// threads (lib/db/readers) shape pages with it as the main thread does (column-types.ts).

const number = (v) => (v === null || v === undefined ? null : Number(v));
const plain = (v) => v ?? null;

const datetime = (v) => {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  return `${s.slice(0, 10)}T${s.slice(11, 19)}.${(s.slice(20, 23) || "000").padEnd(3, "0")}Z`;
};

export const TO_JSON = {
  varchar: plain,
  text: plain,
  int: number,
  bigint: number,
  decimal: number,
  float: number,
  boolean: (v) => (v === null || v === undefined ? null : Number(v) !== 0),
  date: (v) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v)),
  datetime,
  json: (v) => (typeof v === "string" ? JSON.parse(v) : (v ?? null)),
  password: plain,
  dropdown: plain,
  reference: number,
  // A file column's stored JSON; the `url` of each file is added where the row is answered (lib/api/file-urls.ts).
  file: (v) => (v === null || v === undefined ? null : typeof v === "string" ? JSON.parse(v) : v),
};
