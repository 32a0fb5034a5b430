// Property-based fuzzing from the live data OpenAPI (fast-check, fixed seed): requests for every operation of a
// database with every column type, references, a join and database auth, with hostile values (non-finite and
// huge numbers, deep JSON, lone surrogates, odd strings, wrong types, unknown fields and filters, bad ids and
// keys), sent over real HTTP (node adapter). Every answer: no 5xx, a status the document declares for that
// operation, and a body that conforms to the declared schema (errors: the contract's error shape).
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { enableAuth } from "../security/security-fixture";
import { type Doc, declaredResponse, type FuzzRequest, requestArbitrary, roundTripProblems, schemaProblems } from "./openapi-arbitraries";

const SEED = 1515;
const OUTCOMES = new Map<string, string[]>();
const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);

const ErrorBody = z
  .object({
    error: z.string().regex(/^[a-z_]+$/),
    message: z.string().min(1),
    errors: z.array(z.object({ field: z.string(), code: z.string().min(1), message: z.string().min(1), position: z.number().int().optional() }).strict()).min(1).optional(),
  })
  .passthrough();

const TABLES = [
  { name: "users", columns: [{ name: "email", type: "varchar", length: 80, unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
  {
    name: "authors",
    columns: [
      { name: "name", type: "varchar", length: 40, nullable: false, unique: true },
      { name: "bio", type: "text" },
      { name: "born", type: "date" },
      { name: "rating", type: "decimal", precision: 4, scale: 1 },
      { name: "meta", type: "json", default: { tags: [] } },
      { name: "active", type: "boolean", default: true },
    ],
  },
  {
    name: "books",
    columns: [
      { name: "title", type: "varchar", nullable: false },
      { name: "pages", type: "int" },
      { name: "isbn", type: "bigint", unique: true },
      { name: "price", type: "float" },
      { name: "published", type: "datetime" },
      { name: "status", type: "dropdown", options: ["draft", "live"], default: "draft" },
      { name: "author_id", type: "reference", references: "authors" },
      { name: "secret", type: "password" },
    ],
  },
];

describe.each(ENGINES)("OpenAPI fuzz (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  let doc: Doc;
  /** Ids of each table's records, by table: `@n` in a generated path picks one (MariaDB skips ids that SQLite reuses). */
  let ids: Record<string, number[]> = {};
  let base = "";

  beforeAll(async () => {
    const { h } = ctx;
    db = await createDatabase(h, "fuzz", TABLES);
    const join = await h.request("POST", `/api/v1/databases/${db}/joins`, {
      body: {
        name: "books_by_author",
        base: "books",
        joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }],
        columns: [{ column: "books.title", as: "title" }, { column: "books.price", as: "price" }, { column: "authors.name", as: "author" }],
      },
    });
    expect(join.status, join.text).toBe(201);
    await enableAuth(h, db);
    const authors = await h.request("POST", `/v1/${db}/authors`, { body: [{ name: "Ann" }, { name: "Bo", born: "1970-01-02", rating: 4.5 }] });
    expect(authors.status, authors.text).toBe(201);
    const books = await h.request("POST", `/v1/${db}/books`, { body: [{ title: "One", author_id: authors.body[0].id, price: 9.5 }, { title: "Two", author_id: authors.body[1].id }] });
    expect(books.status, books.text).toBe(201);
    const users = await h.request("POST", `/v1/${db}/users`, { body: [{ email: "a@example.com", password: "alpha-pass-1" }, { email: "b@example.com", password: "bravo-pass-2" }] });
    expect(users.status, users.text).toBe(201);
    const idsOf = (records: { id: number }[]) => records.map((r) => r.id);
    ids = { authors: idsOf(authors.body), books: idsOf(books.body), users: idsOf(users.body) };
    doc = (await h.request("GET", `/v1/${db}/openapi.json`)).body;
    base = `/v1/${db}`;
  });

  /** What is wrong with one answer (empty when it is fine). */
  const judge = (r: FuzzRequest, status: number, text: string): string[] => {
    if (status >= 500) return [`${status}: ${text.slice(0, 300)}`];
    const declared = declaredResponse(doc, r.template, r.method, status);
    if (!declared) return [`status ${status} is not declared for ${r.method} ${r.template}: ${text.slice(0, 200)}`];
    const schema = declared.content?.["application/json"]?.schema;
    if (status === 204 || !schema) return text === "" || status !== 204 ? [] : ["204 with a body"];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${status} body is not JSON: ${text.slice(0, 100)}`];
    }
    if (status >= 400) {
      const parsed = ErrorBody.safeParse(body);
      if (!parsed.success) return [`${status} error body off the contract: ${text.slice(0, 200)}`];
      if (status === 422 && !parsed.data.errors) return [`422 without errors: ${text.slice(0, 200)}`];
    }
    const roundTrip = status < 300 ? roundTripProblems(doc, r.template, r.method, r.body, body) : [];
    return [...schemaProblems(doc, schema, body).map((p) => `${status} body: ${p}`), ...roundTrip.map((p) => `${status} stored altered: ${p}`)];
  };

  it(`answers ${RUNS} generated requests with no 5xx, declared statuses and conforming bodies`, async () => {
    const { h } = ctx;
    const requests = fc.sample(requestArbitrary(doc, base), { seed: SEED, numRuns: RUNS });
    const seen: Record<string, number[]> = Object.fromEntries(Object.entries(ids).map(([t, list]) => [t, [...list]]));
    const outcomes: string[] = [];
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let writes = 0;
    for (const r of requests) {
      const table = r.template.split("/")[1];
      const path = r.path.replace(/@(\d+)$/, (_, n) => String(seen[table]?.length ? seen[table][Number(n) % seen[table].length] : 1));
      const url = `${path}${r.query ? `?${r.query}` : ""}`;
      const key = r.key === "good" ? undefined : r.key === "none" ? null : "sk_" + "0".repeat(43);
      const reply = await h.request(r.method, url, { rawBody: r.body, key, headers: r.body === undefined ? {} : { "content-type": "application/json" } });
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      if (r.method !== "GET" && reply.status < 300) writes++;
      outcomes.push(`#${outcomes.length} ${reply.status} ${r.method} ${r.template}?${r.query.slice(0, 80)} ${r.body?.slice(0, 80) ?? ""}`);
      if (reply.status === 204) seen[table] = seen[table].filter((id) => `${base}/${table}/${id}` !== path);
      if (reply.status === 201 && r.template === `/${table}`) (seen[table] ??= []).push(...[reply.body].flat().map((record: { id: number }) => record.id));
      for (const problem of judge(r, reply.status, reply.text)) {
        failures.push(`${r.method} ${url.slice(0, 200)} ${r.body === undefined ? "" : `body ${r.body.slice(0, 200)}`} → ${problem}`);
      }
    }
    console.log(`[fuzz ${engine}] ${RUNS} requests, statuses ${JSON.stringify([...statuses].sort((a, b) => a[0] - b[0]))}`);
    expect(failures.slice(0, 25), `${failures.length} of ${RUNS} answers are wrong`).toEqual([]);
    // The same seed sends the same requests to each engine: they must answer alike.
    OUTCOMES.set(engine, outcomes);
    const other = [...OUTCOMES].find(([e]) => e !== engine)?.[1];
    if (other) expect(outcomes.flatMap((o, i) => (o === other[i] ? [] : [`${o} ≠ ${other[i]}`])).slice(0, 10), "both engines answer the same statuses").toEqual([]);
    // The auth paths (sessions and mailed flows, mostly 4xx on generated bodies) took a share of the sample.
    expect(statuses.get(200) ?? 0, "some reads succeed").toBeGreaterThan(RUNS / 25);
    // Counted by method (a 200 may be a read): the new read paths (aggregates, cursors) and the writes by filter
    // (mostly 422 without a filter) took a share of the sample.
    expect(writes, "some writes succeed").toBeGreaterThan(RUNS / 60);
  }, 240_000);
});
