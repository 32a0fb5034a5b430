// Shared pieces of the HTTP contract suites: the engine × adapter matrix, a harness per describe block,
// database set-up through the management API, and assertions on the contract's error body.
import { afterAll, beforeAll, expect } from "vitest";
import { type Adapter, ENGINES, type Harness, type HarnessOptions, type Reply, startHarness } from "../helpers/harness";

export type Target = { engine: (typeof ENGINES)[number]; adapter: Adapter };

/** Every engine in ENGINES through both adapters; suites run once per entry with `describe.each(MATRIX)`. */
export const MATRIX: Target[] = ENGINES.flatMap((engine) => (["node", "route"] as const).map((adapter) => ({ engine, adapter })));

/** A harness started before the block's tests and closed after them; read `ctx.h` inside tests. */
export const useHarness = (target: Target, options?: HarnessOptions) => {
  const ctx = {} as { h: Harness };
  beforeAll(async () => {
    ctx.h = await startHarness(target.engine, target.adapter, options);
  });
  afterAll(async () => {
    await ctx.h?.close();
  });
  return ctx;
};

export type ColumnInput = Record<string, unknown> & { name: string; type: string };
export type TableInput = { name: string; columns: ColumnInput[]; history?: boolean };

/** Creates a database (quick create) with the harness account and returns its instance. */
export const createDatabase = async (h: Harness, name: string, tables: TableInput[] = [], key?: string): Promise<string> => {
  const reply = await h.request("POST", "/api/v1/databases", { body: { name, tables }, key });
  expect(reply.status, `create database ${name}: ${reply.text}`).toBe(201);
  return reply.body.instance as string;
};

/** POSTs records (one object or an array) and returns the created record(s), failing on anything but 201. */
export const insert = async (h: Harness, path: string, body: unknown): Promise<any> => {
  const reply = await h.request("POST", path, { body });
  expect(reply.status, `POST ${path}: ${reply.text}`).toBe(201);
  return reply.body;
};

/** GETs a collection and returns its records, failing on anything but 200. */
export const list = async (h: Harness, path: string): Promise<any[]> => {
  const reply = await h.request("GET", path);
  expect(reply.status, `GET ${path}: ${reply.text}`).toBe(200);
  expect(Array.isArray(reply.body), `GET ${path} should return an array: ${reply.text}`).toBe(true);
  return reply.body;
};

/** The `field` of every entry of a 422's `errors`. */
export const errorFields = (reply: Reply): string[] => (Array.isArray(reply.body?.errors) ? reply.body.errors.map((e: { field: unknown }) => e.field) : []);

/**
 * Asserts the contract's error body: the status, `{error: <code>, message: <sentence>}`, and when `fields` is
 * given an `errors` array of well-formed `{field, code, message}` entries naming every one of them.
 */
export const expectError = (reply: Reply, status: number, error: string, fields?: string[]) => {
  const where = `${reply.status} ${reply.text.slice(0, 600)}`;
  expect(reply.status, where).toBe(status);
  expect(reply.headers.get("content-type") ?? "", where).toMatch(/^application\/json/);
  expect(reply.body, where).toBeTypeOf("object");
  expect(reply.body.error, where).toBe(error);
  expect(reply.body.message, where).toBeTypeOf("string");
  expect(reply.body.message.length, where).toBeGreaterThan(0);
  expect(reply.text, "an error body never carries a stack trace").not.toMatch(/\n\s+at .+:\d+:\d+/);
  if (fields) {
    expect(Array.isArray(reply.body.errors), `errors should be an array: ${where}`).toBe(true);
    for (const entry of reply.body.errors) {
      expect(entry, where).toEqual({ field: expect.any(String), code: expect.any(String), message: expect.any(String) });
    }
    expect(errorFields(reply), where).toEqual(expect.arrayContaining(fields));
  }
};

/** 422 `validation_failed` whose `errors` name the given fields. */
export const expect422 = (reply: Reply, ...fields: string[]) => expectError(reply, 422, "validation_failed", fields);

/** A 401 of the contract: `{error: "unauthorized", message}` and a `WWW-Authenticate: Bearer ...` header. */
export const expect401 = (reply: Reply) => {
  expectError(reply, 401, "unauthorized");
  expect(reply.headers.get("www-authenticate") ?? "", "401 carries WWW-Authenticate: Bearer").toMatch(/^Bearer\b/);
};

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
export const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Query string from pairs, percent-encoding names and values (what a careful client sends). */
export const qs = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
