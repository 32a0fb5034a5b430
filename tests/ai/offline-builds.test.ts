// Without a model the offline planner answers POST /ai/builds: each of the 47 test sentences plans and applies
// a working backend on both engines (its tables, its seed rows written through the data API's validation and
// read back, a join answering rows), for free. A sentence naming fewer than two things is 422 with nothing
// created; extending adds only the missing tables; `kind: "join"` proposes one join over the existing tables.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planOffline } from "../../lib/ai/offline-planner";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, accountOnPlan, aiLedger, aiUsage, builds, postBuild } from "./ai-fixture";
import { CASES } from "./offline-cases";

type Column = { name: string; type: string; references?: string };
type Row = Record<string, unknown>;

/** Types whose values come back from the data API exactly as written in a seed row. */
const EXACT = new Set(["varchar", "text", "dropdown", "int", "bigint", "boolean", "date"]);

/**
 * Each seed value as the data API answers it (decimals may come back as numbers or strings). A reference
 * holds the seed row's position in its target table: it must point at that row's id, whatever the id is.
 */
const expectRowsMatchSeed = (table: string, columns: Column[], rows: Row[], seed: Row[], stored: Map<string, Row[]>) => {
  expect(rows.length, table).toBe(seed.length);
  seed.forEach((want, i) => {
    for (const column of columns) {
      const value = want[column.name];
      const at = `${table}[${i}].${column.name}`;
      if (value === undefined) continue;
      if (EXACT.has(column.type)) expect(rows[i][column.name], at).toEqual(value);
      else if (column.type === "decimal" || column.type === "float") expect(Number(rows[i][column.name]), at).toBe(value);
      else if (column.type === "reference") expect(rows[i][column.name], at).toBe(stored.get(column.references!)![(value as number) - 1].id);
      else if (column.type === "datetime") expect(Date.parse(rows[i][column.name] as string), at).toBe(Date.parse(value as string));
    }
  });
};

describe.each(ENGINES)("offline AI builds on %s", (engine) => {
  let h: Harness;
  /** No allowance at all and no credits: offline builds must not need either. */
  let account: Account;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    h.app.config.ai = undefined;
    account = await accountOnPlan(h, { ai_calls_per_month: 0, max_databases: null });
  }, 60_000);
  afterAll(async () => h?.close());

  const get = (path: string) => h.request("GET", path, { key: account.key });

  it.each(CASES)("$sentence → applied with its tables, seed rows and a join that answers rows", async ({ sentence, tables }) => {
    const reply = await postBuild(h, account.key, { prompt: sentence, apply: true });
    expect(reply.status, reply.text).toBe(201);
    const build = reply.body;
    expect(build).toMatchObject({ status: "applied", offline: true, model: "offline", prompt: sentence, credit: "none", usage: null, steps: [], error: null });
    expect([...build.plan.tables.map((t: { name: string }) => t.name)].sort()).toEqual([...tables].sort());
    const db = build.database as string;
    const detail = await get(`/api/v1/databases/${db}`);
    expect(detail.body.tables.map((t: { name: string }) => t.name)).toEqual(build.plan.tables.map((t: { name: string }) => t.name));
    const stored = new Map<string, Row[]>();
    for (const table of build.plan.tables as { name: string; columns: Column[] }[]) {
      const rows = await get(`/v1/${db}/${table.name}?_sort=id&_limit=100`);
      expect(rows.status, rows.text).toBe(200);
      expectRowsMatchSeed(table.name, table.columns, rows.body, build.plan.seed[table.name], stored);
      stored.set(table.name, rows.body);
    }
    for (const join of build.plan.joins as { name: string; columns: { as: string }[] }[]) {
      const joined = await get(`/v1/${db}/${join.name}`);
      expect(joined.status, joined.text).toBe(200);
      expect(joined.body.length).toBeGreaterThan(0);
      expect(Object.keys(joined.body[0])).toEqual(join.columns.map((c) => c.as));
    }
  });

  it("GET /ai/planner should allow a signed-in caller and say the offline planner plans; it names the model once one is configured", async () => {
    expect(await get("/api/v1/ai/planner")).toMatchObject({ status: 200, body: { offline: true, model: null } });
    h.app.config.ai = { baseUrl: "http://127.0.0.1:9/v1", model: "qwen2.5:7b", maxSteps: 4, tools: true };
    try {
      const reply = await get("/api/v1/ai/planner");
      // The endpoint and key stay on the server.
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: { offline: false, model: "qwen2.5:7b" } });
    } finally {
      h.app.config.ai = undefined;
    }
  });

  it("GET /ai/planner should block a caller without credentials", async () => {
    const reply = await h.request("GET", "/api/v1/ai/planner", { key: null });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ error: "unauthorized" });
  });

  it("cost nothing: no AI call counted and no credit used, on a plan that allows none", async () => {
    const fresh = await accountOnPlan(h, { ai_calls_per_month: 0, max_databases: null });
    for (const { sentence } of CASES.slice(0, 2)) expect((await postBuild(h, fresh.key, { prompt: sentence, apply: true })).status).toBe(201);
    expect(await aiUsage(h, fresh.key)).toEqual({ calls: 0, credits: 0 });
    expect(await aiLedger(h, fresh.key)).toEqual([]);
    expect((await builds(h, fresh.key, "applied")).length).toBe(2);
  });

  it("refuses a sentence naming fewer than two things with 422 saying what it understood, and creates nothing", async () => {
    const before = (await get("/api/v1/databases")).body.length;
    const prompt = "An online shop selling handmade soap";
    const reply = await postBuild(h, account.key, { prompt, apply: true });
    const { error } = planOffline(prompt) as { error: string };
    expect(error).toMatch(/^The offline planner \(used because no AI model is configured\) understood no things to keep track of for "online shop"/);
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 422, body: { error: "ai_plan_invalid", message: error } });
    expect((await get("/api/v1/databases")).body.length).toBe(before);
    const [build] = await builds(h, account.key);
    expect(build).toMatchObject({ prompt, status: "failed", credit: "none", database: null, plan: null, error });
  });

  it("extending a database adds only the tables it lacks, and nothing once it has them all", async () => {
    const { key } = account;
    const customers = { name: "customers", columns: [{ name: "name", type: "varchar", nullable: false }, { name: "email", type: "varchar" }] };
    const created = await h.request("POST", "/api/v1/databases", { key, body: { name: "My shop", tables: [customers] } });
    expect(created.status, created.text).toBe(201);
    const db = created.body.instance as string;
    const people = [{ name: "Kim" }, { name: "Lee" }, { name: "Max" }];
    expect((await h.request("POST", `/v1/${db}/customers`, { key, body: people })).status).toBe(201);

    const prompt = "A shop: customers, products with a price, and orders of customers";
    const reply = await postBuild(h, key, { prompt, database: db, apply: true });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ status: "applied", database: db, credit: "none", summary: expect.stringMatching(/\(only what "My shop" lacks\)$/) });
    const added = ["products", "orders"];
    expect(reply.body.plan.tables.map((t: { name: string }) => t.name)).toEqual(added);
    // Only tables whose references stay inside the plan get seed rows: the database's own ids are unknown.
    expect(Object.keys(reply.body.plan.seed).sort()).toEqual(["products"]);
    // The join of orders with customers reads customers, which this database defines its own way: it is left out.
    expect(reply.body.plan.joins).toEqual([]);
    expect((await get(`/api/v1/databases/${db}`)).body.tables.map((t: { name: string }) => t.name)).toEqual(["customers", ...added]);
    expect((await get(`/api/v1/databases/${db}/tables/customers`)).body.columns.map((c: { name: string }) => c.name)).toEqual(["name", "email"]);
    expect((await get(`/v1/${db}/customers`)).body.map((r: Row) => r.name)).toEqual(["Kim", "Lee", "Max"]);
    expect((await get(`/v1/${db}/orders`)).body).toEqual([]);
    expect((await get(`/v1/${db}/products`)).body).toHaveLength(reply.body.plan.seed.products.length);

    const again = await postBuild(h, key, { prompt, database: db, apply: true });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 422,
      body: { error: "ai_plan_invalid", message: '"My shop" already has every table the offline planner would add for this prompt.' },
    });
  });

  it("kind join proposes one valid join over the existing tables, which applies and answers joined rows", async () => {
    const { key } = account;
    const tables = [
      { name: "authors", columns: [{ name: "name", type: "varchar", nullable: false }] },
      { name: "books", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "author_id", type: "reference", references: "authors" }] },
    ];
    const created = await h.request("POST", "/api/v1/databases", { key, body: { name: "Library", tables } });
    const db = created.body.instance as string;
    await h.request("POST", `/v1/${db}/authors`, { key, body: [{ name: "Le Guin" }, { name: "Calvino" }] });
    await h.request("POST", `/v1/${db}/books`, { key, body: [{ title: "Earthsea", author_id: 1 }, { title: "Invisible Cities", author_id: 2 }] });

    const reply = await postBuild(h, key, { prompt: "books with their authors", database: db, kind: "join" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ status: "planned", kind: "join", database: db, summary: "Offline proposal: books joined to authors on books.author_id." });
    expect(reply.body.plan).toEqual({
      name: "Library",
      tables: [],
      joins: [
        {
          name: "books_with_authors",
          base: "books",
          joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }],
          columns: [
            { column: "books.id", as: "id" },
            { column: "books.title", as: "title" },
            { column: "books.author_id", as: "author_id" },
              { column: "authors.name", as: "name" },
          ],
        },
      ],
      seed: {},
    });
    const applied = await h.request("POST", `/api/v1/ai/builds/${reply.body.id}/apply`, { key });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.tables.map((t: { name: string }) => t.name)).toEqual(["authors", "books"]);
    expect((await get(`/v1/${db}/books_with_authors?_sort=id`)).body).toEqual([
      { id: 1, title: "Earthsea", author_id: 1, name: "Le Guin" },
      { id: 2, title: "Invisible Cities", author_id: 2, name: "Calvino" },
    ]);

    const noDatabase = await postBuild(h, key, { prompt: "books with their authors", kind: "join" });
    expect({ status: noDatabase.status, body: noDatabase.body }).toMatchObject({
      status: 422,
      body: { error: "validation_failed", errors: [{ field: "database", code: "required", message: "a join is proposed for an existing database: name it in `database`" }] },
    });
  });
});
