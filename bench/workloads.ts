// The benchmark requests. Each workload draws fresh random values per request (W1, W4, W5), so the
// server cannot serve a cached answer; `sample` gives one fixed request for the pre-flight check.
import { randomBytes } from "node:crypto";
import { BLOB_COUNT, BLOBS_TABLE, DOC_COUNT, docName, DOCS_TABLE, INDEXED_TABLE, JOIN_NAME, REVIEWS_TABLE, ROW_COUNT, SEARCH_TABLE } from "./setup";

export type WorkloadId = "W1" | "W2" | "W2i" | "W3" | "W3s" | "W3r" | "W3rs" | "W4" | "W5" | "W6" | "W7" | "W8" | "W8k" | "W8a" | "W9" | "W10" | "WJ" | "WJb" | "W11" | "W12";

/** `headers` are added to the run's (the API key, JSON's content type). */
export type BenchRequest = { method: "GET" | "POST" | "PATCH" | "PUT"; path: string; body?: string | Buffer; headers?: Record<string, string> };

export type Workload = {
  id: WorkloadId;
  label: string;
  /** Status every response must have. */
  status: 200 | 201;
  /** A new request (random values) under /v1/{instance}. */
  next: (base: string) => BenchRequest;
  /** A fixed request for the check, so Tabula's and the ceiling's answers can be compared. */
  sample: (base: string) => BenchRequest;
  /** Whether the check compares the full bodies (reads) or only their shape (writes stamp times and ids). */
  compareBodies: boolean;
  /** The answer is a file: the check compares its bytes, not JSON. */
  bytes?: boolean;
  /**
   * Several workloads at once, each on its share of the connections (or on `connections`, at most `rate`
   * requests per second in all); the first one's figures are reported.
   */
  mix?: { id: WorkloadId; share: number; connections?: number; rate?: number }[];
  /** A mix whose first part also runs alone first, so the report can say what the others added to it. */
  baseline?: boolean;
};

/** The `_after` cursor Tabula's Link header gives after row `id` in the default order (opaque to clients). */
export const idCursor = (id: number) => Buffer.from(JSON.stringify(["", id])).toString("base64url");

export const randomId = () => 1 + Math.floor(Math.random() * ROW_COUNT);
export const randomInt = (max: number) => Math.floor(Math.random() * max);

/** W4's new product (bench/peers.ts wraps it as each peer's API wants it). */
export const productFields = (n: number) => ({ name: `new product ${n}`, price: (100 + randomInt(99_900)) / 100, category: `c${n % 20}`, stock: randomInt(1000) });

const newProduct = (n: number) => JSON.stringify(productFields(n));

/** A JSON document of about `bytes` as text: objects of short strings and numbers. */
export const bigDocument = (bytes: number) => {
  const items: unknown[] = [];
  for (let size = 12; size < bytes; ) {
    const item = { id: items.length, name: `item ${items.length} ${"x".repeat(32)}`, price: items.length * 1.25, tags: ["a", "b"] };
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return { items };
};

/** WJb's body, made once: a 900 KB json value (the limit is 1 MiB). */
let bigBody: string | undefined;
const bigPatch = () => (bigBody ??= JSON.stringify({ data: bigDocument(900_000) }));

/** W12's body, made once: a multipart create with a title and a 1 MB file of random bytes. */
const BOUNDARY = "tabula-bench-boundary-7d1f";
let uploadBody: Buffer | undefined;
const multipartUpload = (): BenchRequest["headers"] & object => ({ "content-type": `multipart/form-data; boundary=${BOUNDARY}` });
const uploadBytes = () =>
  (uploadBody ??= Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="title"\r\n\r\nbench upload\r\n`),
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="doc"; filename="upload.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    randomBytes(1024 * 1024),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]));

const docPath = (base: string, id: number) => `${base}/${DOCS_TABLE}/${id}/doc/${docName(id)}`;

export const WORKLOADS: Workload[] = [
  {
    id: "W1",
    label: "GET /products/{id}",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products/${randomId()}` }),
    sample: (base) => ({ method: "GET", path: `${base}/products/12345` }),
    compareBodies: true,
  },
  {
    id: "W2",
    label: "GET ?category&price_lt&_sort",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products?category=c7&price_lt=500&_sort=-price` }),
    sample: (base) => ({ method: "GET", path: `${base}/products?category=c7&price_lt=500&_sort=-price` }),
    compareBodies: true,
  },
  {
    // W2 on a copy of products with an index on (category, price), made through the schema API.
    id: "W2i",
    label: "W2 with index (category, price)",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/${INDEXED_TABLE}?category=c7&price_lt=500&_sort=-price` }),
    sample: (base) => ({ method: "GET", path: `${base}/${INDEXED_TABLE}?category=c7&price_lt=500&_sort=-price` }),
    compareBodies: true,
  },
  {
    id: "W3",
    label: "GET ?name_ilike=widget 12",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products?name_ilike=widget%2012` }),
    sample: (base) => ({ method: "GET", path: `${base}/products?name_ilike=widget%2012` }),
    compareBodies: true,
  },
  {
    // W3 on a searchable column (SQLite asks its trigram index, then rechecks). The scan finds this page within
    // the first ~1,240 rows, so the index has little to save here: W3r/W3rs show where it pays.
    id: "W3s",
    label: "W3 on a searchable column",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/${SEARCH_TABLE}?name_ilike=widget%2012` }),
    sample: (base) => ({ method: "GET", path: `${base}/${SEARCH_TABLE}?name_ilike=widget%2012` }),
    compareBodies: true,
  },
  {
    // A rare value (1 row of 100,000): the scan reads every row.
    id: "W3r",
    label: "GET ?name_ilike=widget 9999x (rare)",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products?name_ilike=widget%209999${randomInt(10)}` }),
    sample: (base) => ({ method: "GET", path: `${base}/products?name_ilike=widget%2099999` }),
    compareBodies: true,
  },
  {
    id: "W3rs",
    label: "W3r on a searchable column",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/${SEARCH_TABLE}?name_ilike=widget%209999${randomInt(10)}` }),
    sample: (base) => ({ method: "GET", path: `${base}/${SEARCH_TABLE}?name_ilike=widget%2099999` }),
    compareBodies: true,
  },
  {
    id: "W4",
    label: "POST /products",
    status: 201,
    next: (base) => ({ method: "POST", path: `${base}/products`, body: newProduct(randomInt(1_000_000)) }),
    sample: (base) => ({ method: "POST", path: `${base}/products`, body: newProduct(0) }),
    compareBodies: false,
  },
  {
    id: "W5",
    label: "PATCH /products/{id} stock",
    status: 200,
    next: (base) => ({ method: "PATCH", path: `${base}/products/${randomId()}`, body: JSON.stringify({ stock: randomInt(1000) }) }),
    sample: (base) => ({ method: "PATCH", path: `${base}/products/99999`, body: JSON.stringify({ stock: 7 }) }),
    compareBodies: false,
  },
  {
    // A page of 50 from products ⋈ categories (a join path), at a random depth within the first 5,000 rows.
    id: "W6",
    label: "GET join products⋈categories page of 50",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/${JOIN_NAME}?_limit=50&_offset=${50 * randomInt(100)}` }),
    sample: (base) => ({ method: "GET", path: `${base}/${JOIN_NAME}?_limit=50&_offset=1000` }),
    compareBodies: true,
  },
  {
    // Does a scan stall other requests? W1's latency while W3 runs beside it (25 + 25 connections).
    id: "W7",
    label: "W1 (p99) while W3 runs, 25 + 25 conns",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products/${randomId()}` }),
    sample: (base) => ({ method: "GET", path: `${base}/products/12345` }),
    compareBodies: true,
    mix: [
      { id: "W1", share: 0.5 },
      { id: "W3", share: 0.5 },
    ],
  },
  {
    // A deep page: the engine walks 90,000 rows before the 50 it returns.
    id: "W8",
    label: "GET ?_offset=90000 (deep page)",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products?_offset=${90_000 + randomInt(50)}` }),
    sample: (base) => ({ method: "GET", path: `${base}/products?_offset=90000` }),
    compareBodies: true,
  },
  {
    // The same page by keyset (what docs/api.md recommends for deep pages): the primary key seeks to it.
    id: "W8k",
    label: "GET ?id_gt=90000&_sort=id (keyset)",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products?id_gt=${90_000 + randomInt(50)}&_sort=id` }),
    sample: (base) => ({ method: "GET", path: `${base}/products?id_gt=90000&_sort=id` }),
    compareBodies: true,
  },
  {
    // W8's page through the Link header's cursor: the keyset WHERE seeks to it, however deep.
    id: "W8a",
    label: "GET ?_after=<cursor at 90000> (Link)",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products?_after=${idCursor(90_000 + randomInt(50))}` }),
    sample: (base) => ({ method: "GET", path: `${base}/products?_after=${idCursor(90_000)}` }),
    compareBodies: true,
  },
  {
    // Count, sum and average per category over all 100,000 products (a full scan each time).
    id: "W9",
    label: "GET /_aggregate 100k rows by category",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products/_aggregate?_group=category&_agg=count,sum:price,avg:price` }),
    sample: (base) => ({ method: "GET", path: `${base}/products/_aggregate?_group=category&_agg=count,sum:price,avg:price` }),
    compareBodies: true,
  },
  {
    // A page of 50 reviews with their product and category rows: three statements per request.
    id: "W10",
    label: "GET page of 50 with 2 _expand",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/${REVIEWS_TABLE}?_expand=product_id,category_id&_offset=${50 * randomInt(100)}` }),
    sample: (base) => ({ method: "GET", path: `${base}/${REVIEWS_TABLE}?_expand=product_id,category_id&_offset=1000` }),
    compareBodies: true,
  },
  {
    // Do big values stall other tenants? W1 as a lightly loaded tenant (5 connections, 200 req/s: the server is
    // not saturated by it) while 3 connections PATCH a 900 KB json value, 10 per second in all (the free plan's
    // rate), as three clients of one account would. The W1 part first runs alone, for the latency they add.
    id: "WJ",
    label: "W1 200/s (p99) while 3 conns PATCH 900 KB JSON",
    status: 200,
    next: (base) => ({ method: "GET", path: `${base}/products/${randomId()}` }),
    sample: (base) => ({ method: "GET", path: `${base}/products/12345` }),
    compareBodies: true,
    mix: [
      { id: "W1", share: 0, connections: 5, rate: 200 },
      { id: "WJb", share: 0, connections: 3, rate: 10 },
    ],
    baseline: true,
  },
  {
    // A stored 100 KB file by its row's id and stored name: the row read under its rules, then the bytes streamed.
    id: "W11",
    label: "GET /documents/{id}/doc/{name} 100 KB file",
    status: 200,
    next: (base) => ({ method: "GET", path: docPath(base, 1 + randomInt(DOC_COUNT)) }),
    sample: (base) => ({ method: "GET", path: docPath(base, 7) }),
    compareBodies: true,
    bytes: true,
  },
  {
    // A row created with a 1 MB file in one multipart request: streamed to the store, then the row committed.
    id: "W12",
    label: "POST /documents multipart 1 MB file",
    status: 201,
    next: (base) => ({ method: "POST", path: `${base}/${DOCS_TABLE}`, body: uploadBytes(), headers: multipartUpload() }),
    sample: (base) => ({ method: "POST", path: `${base}/${DOCS_TABLE}`, body: uploadBytes(), headers: multipartUpload() }),
    compareBodies: false,
  },
];

/** Workloads measured only as a part of a mix (not on their own). */
export const MIX_PARTS: Workload[] = [
  {
    id: "WJb",
    label: "PATCH /blobs/{id} 900 KB JSON",
    status: 200,
    next: (base) => ({ method: "PATCH", path: `${base}/${BLOBS_TABLE}/${1 + randomInt(BLOB_COUNT)}`, body: bigPatch() }),
    sample: (base) => ({ method: "PATCH", path: `${base}/${BLOBS_TABLE}/1`, body: bigPatch() }),
    compareBodies: false,
  },
];
