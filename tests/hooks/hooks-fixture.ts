// Shared pieces of the pre-hook suites: a shop table whose hooks compute a slug and a total and guard the price
// and deletions, a table whose hook divides by a column (the runtime error), and readers of hooks and logs.
import { expect } from "vitest";
import type { Harness, Reply } from "../helpers/harness";
import { createDatabase, expectError, type TableInput } from "../contract/contract-helpers";

export type Step = { set: string; expr: string } | { assert: string; message: string };
export type Hooks = { insert?: Step[]; update?: Step[]; delete?: Step[] };

export const SLUG = 'new.title.lowerAscii().split(" ").join("-")';
export const TOTAL = "new.price * double(new.quantity)";

/** Insert: slug, a price guard (index 1, as in the contract's example), total. Update: the same off `old`. */
export const PRODUCT_HOOKS = {
  insert: [
    { set: "slug", expr: SLUG },
    { assert: "new.price > 0.0", message: "price must be positive" },
    { set: "total", expr: TOTAL },
  ],
  update: [
    { set: "slug", expr: SLUG },
    { assert: "new.price <= old.price * 2.0", message: "price may at most double" },
    { set: "total", expr: TOTAL },
  ],
  delete: [{ assert: "old.quantity == 0", message: "only sold-out products can be deleted" }],
};

/** `share = 1000 / parts` fails at run time when parts is 0: hook "shares.insert", step 1. */
export const SHARE_HOOKS = {
  insert: [
    { set: "label", expr: "new.name.upperAscii()" },
    { set: "share", expr: "1000 / new.parts" },
  ],
  update: [],
  delete: [],
};

export const SHOP_TABLES: TableInput[] = [
  {
    name: "products",
    columns: [
      { name: "title", type: "varchar", nullable: false },
      { name: "slug", type: "varchar", length: 40 },
      { name: "price", type: "decimal", precision: 10, scale: 2, nullable: false },
      { name: "quantity", type: "int", nullable: false },
      { name: "total", type: "decimal", precision: 12, scale: 2 },
      { name: "note", type: "text" },
    ],
  },
  {
    name: "shares",
    columns: [
      { name: "name", type: "varchar", nullable: false },
      { name: "label", type: "varchar" },
      { name: "parts", type: "int", nullable: false },
      { name: "share", type: "int" },
    ],
  },
];

export const hooksPath = (db: string, table: string) => `/api/v1/databases/${db}/tables/${table}/hooks`;

/** PUTs a table's hooks and checks the reply is the same hooks with all three arrays. */
export const putHooks = async (h: Harness, db: string, table: string, hooks: Hooks) => {
  const reply = await h.request("PUT", hooksPath(db, table), { body: hooks });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body).toEqual({ insert: [], update: [], delete: [], ...hooks });
  return reply.body as Required<Hooks>;
};

export const getHooks = async (h: Harness, db: string, table: string) => {
  const reply = await h.request("GET", hooksPath(db, table));
  expect(reply.status, reply.text).toBe(200);
  return reply.body as Required<Hooks>;
};

/** A database with the shop tables and their hooks installed. */
export const makeShop = async (h: Harness, name: string) => {
  const db = await createDatabase(h, name, SHOP_TABLES);
  await putHooks(h, db, "products", PRODUCT_HOOKS);
  await putHooks(h, db, "shares", SHARE_HOOKS);
  return db;
};

/** Every row of a table with every column, read with the account key: the table's state, to compare. */
export const snapshot = async (h: Harness, db: string, table: string) => {
  const reply = await h.request("GET", `/v1/${db}/${table}?_limit=1000`);
  expect(reply.status, reply.text).toBe(200);
  return reply.text;
};

export type LogEntry = {
  id: number;
  table: string;
  action: string;
  status: "ok" | "rejected" | "failed";
  duration_ms: number;
  input: unknown;
  steps: ({ index: number; result: unknown } | { index: number; error: string })[];
  created_at: string;
};

export const readLogs = async (h: Harness, db: string, query = ""): Promise<LogEntry[]> => {
  const reply = await h.request("GET", `/api/v1/databases/${db}/hooks/logs${query ? `?${query}` : ""}`);
  expect(reply.status, reply.text).toBe(200);
  expect(Array.isArray(reply.body), reply.text).toBe(true);
  return reply.body;
};

/** The contract's 422 for a false assert: the step's message, once as the message and once in its error. */
export const expectHookAssert = (reply: Reply, field: string | RegExp, message: string) => {
  expectError(reply, 422, "validation_failed");
  expect(reply.body.message).toBe(message);
  expect(reply.body.errors, reply.text).toHaveLength(1);
  expect(reply.body.errors[0]).toEqual({ field: typeof field === "string" ? field : expect.stringMatching(field), code: "hook_assert", message });
};

/** The contract's 500 for a runtime error or the budget: names the hook and the step, and no internals. */
export const expectHookFailed = (reply: Reply, hook: string, step: number) => {
  expectError(reply, 500, "pre_hook_failed");
  expect(reply.body).toEqual({ error: "pre_hook_failed", message: expect.any(String), hook, step });
};
