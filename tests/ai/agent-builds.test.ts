// The agent against a scripted OpenAI-compatible model over real HTTP: a multi-step build applied end to end
// (tables, a dropdown, a reference, a join, seed rows served by the data API), and a model that makes mistakes
// (malformed JSON, an unknown tool, an unknown column type), reads the problems in the tool results, and
// corrects itself. Nothing of ours is mocked: the model is the only thing scripted.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { aiUsage, builds, postBuild } from "./ai-fixture";
import { aiConfig, type Reply, type ScriptedModel, startScriptedModel, summedUsage, toolResults } from "./scripted-model";

const TOOLS = ["set_database_name", "add_table", "add_column", "add_join", "add_seed_rows", "finish"];

const CATEGORIES = { name: "categories", columns: [{ name: "title", type: "varchar", length: 80, nullable: false, unique: true }] };
const PRODUCTS = {
  name: "products",
  columns: [
    { name: "name", type: "varchar", length: 100, nullable: false },
    { name: "size", type: "dropdown", options: ["small", "large"], nullable: false, default: "small" },
    { name: "price", type: "decimal", precision: 8, scale: 2 },
  ],
};
const CATEGORY_REF = { table: "products", column: { name: "category_id", type: "reference", references: "categories" } };
const JOIN = {
  name: "catalog",
  base: "products",
  joins: [{ table: "categories", on: [["products.category_id", "categories.id"]] }],
  columns: [{ column: "products.name", as: "product" }, { column: "products.size", as: "size" }, { column: "categories.title", as: "category" }],
};
const CATEGORY_ROWS = { table: "categories", rows: [{ title: "Bars" }, { title: "Liquid" }] };
const PRODUCT_ROWS = {
  table: "products",
  rows: [
    { name: "Lavender bar", size: "small", price: 6.5, category_id: 1 },
    { name: "Hand wash", size: "large", price: 9, category_id: 2 },
    { name: "Oat bar", size: "large", price: 7.25, category_id: 1 },
  ],
};
const SUMMARY = "A soap shop with categories, products and a catalog join.";

/** Six model calls: two of them call two tools at once; the last one finishes. */
const SOAP_SHOP: Reply[] = [
  { tools: [{ name: "set_database_name", args: { name: "Soap shop" } }, { name: "add_table", args: CATEGORIES }] },
  { tools: [{ name: "add_table", args: PRODUCTS }] },
  { tools: [{ name: "add_column", args: CATEGORY_REF }] },
  { tools: [{ name: "add_join", args: JOIN }] },
  { tools: [{ name: "add_seed_rows", args: CATEGORY_ROWS }, { name: "add_seed_rows", args: PRODUCT_ROWS }] },
  { tools: [{ name: "finish", args: { summary: SUMMARY } }] },
];

describe.each(ENGINES)("AI builds with a model on %s", (engine) => {
  let h: Harness;
  let model: ScriptedModel;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    model = await startScriptedModel();
  }, 60_000);
  beforeEach(() => {
    model.reset();
    h.app.config.ai = aiConfig(model.baseUrl);
  });
  afterAll(async () => {
    await model?.close();
    await h?.close();
  });

  it("plans in six model calls and applies: tables, a dropdown, a reference, a join and seed rows, one AI call charged", async () => {
    const { key } = await h.createAccount();
    model.script(...SOAP_SHOP);
    const reply = await postBuild(h, key, { prompt: "A shop for handmade soap", apply: true });
    expect(reply.status, reply.text).toBe(201);
    const build = reply.body;
    expect(build).toMatchObject({ status: "applied", offline: false, model: "scripted", prompt: "A shop for handmade soap", summary: SUMMARY, credit: "charged", error: null });
    expect(build.usage).toEqual(summedUsage(6));
    expect(build.database).toMatch(/^soap_shop_[a-z0-9]+$/);
    expect(build.steps).toEqual([
      { tool: "set_database_name", input: { name: "Soap shop" }, ok: true },
      { tool: "add_table", input: CATEGORIES, ok: true },
      { tool: "add_table", input: PRODUCTS, ok: true },
      { tool: "add_column", input: CATEGORY_REF, ok: true },
      { tool: "add_join", input: JOIN, ok: true },
      { tool: "add_seed_rows", input: CATEGORY_ROWS, ok: true },
      { tool: "add_seed_rows", input: PRODUCT_ROWS, ok: true },
      { tool: "finish", input: { summary: SUMMARY }, ok: true },
    ]);
    expect(build.plan).toEqual({
      name: "Soap shop",
      tables: [CATEGORIES, { ...PRODUCTS, columns: [...PRODUCTS.columns, CATEGORY_REF.column] }],
      joins: [JOIN],
      seed: { categories: CATEGORY_ROWS.rows, products: PRODUCT_ROWS.rows },
    });
    // The model was called exactly six times, non-streaming, with every tool offered each time.
    expect(model.requests).toHaveLength(6);
    for (const request of model.requests) {
      expect(request.model).toBe("scripted");
      expect(request.stream).not.toBe(true);
      expect(request.tools?.map((t) => t.function.name).sort()).toEqual([...TOOLS].sort());
    }
    expect(toolResults(model.requests[5])).toMatchObject({ call_4_0: '{"ok":true}', call_4_1: '{"ok":true}' });
    expect(await aiUsage(h, key)).toEqual({ calls: 1, credits: 0 });
    expect((await builds(h, key)).map((b) => [b.id, b.status])).toEqual([[build.id, "applied"]]);
    expect((await h.request("GET", `/api/v1/ai/builds/${build.id}`, { key })).body).toEqual(build);

    // The data API serves the seed rows; the dropdown refuses a value outside its options.
    const db = build.database as string;
    const categories = await h.request("GET", `/v1/${db}/categories`, { key });
    expect(categories.body.map((r: any) => [r.id, r.title])).toEqual([[1, "Bars"], [2, "Liquid"]]);
    const products = await h.request("GET", `/v1/${db}/products?_sort=id`, { key });
    expect(products.body.map((r: any) => [r.name, r.size, Number(r.price), r.category_id])).toEqual(PRODUCT_ROWS.rows.map((r) => [r.name, r.size, r.price, r.category_id]));
    const medium = await h.request("POST", `/v1/${db}/products`, { key, body: { name: "Mini bar", size: "medium", category_id: 1 } });
    expect({ status: medium.status, body: medium.body }).toEqual({
      status: 422,
      body: { error: "validation_failed", message: '"size" must be one of: small, large', errors: [{ field: "size", code: "not_an_option", message: '"size" must be one of: small, large' }] },
    });
    expect((await h.request("POST", `/v1/${db}/products`, { key, body: { name: "Mini bar", size: "small", category_id: 1 } })).status).toBe(201);

    // The join is a documented path answering joined rows.
    const openapi = await h.request("GET", `/v1/${db}/openapi.json`, { key });
    expect(Object.keys(openapi.body.paths["/catalog"])).toEqual(["get"]);
    const catalog = await h.request("GET", `/v1/${db}/catalog?_sort=product`, { key });
    expect(catalog.status).toBe(200);
    expect(catalog.body).toEqual([
      { product: "Hand wash", size: "large", category: "Liquid" },
      { product: "Lavender bar", size: "small", category: "Bars" },
      { product: "Mini bar", size: "small", category: "Bars" },
      { product: "Oat bar", size: "large", category: "Bars" },
    ]);
  });

  it("sends each mistake back as a tool result and plans once the model corrects itself", async () => {
    const { key } = await h.createAccount();
    const money = { name: "products", columns: [{ name: "name", type: "varchar" }, { name: "price", type: "money" }] };
    const fixed = { name: "products", columns: [{ name: "name", type: "varchar" }, { name: "price", type: "decimal", precision: 8, scale: 2 }] };
    model.script(
      // Malformed JSON and a tool that does not exist, in one answer.
      { tools: [{ name: "add_table", args: '{"name": "products", "columns": [' }, { name: "add_index", args: { table: "products" } }] },
      { tools: [{ name: "add_table", args: money }] },
      { tools: [{ name: "set_database_name", args: { name: "Price list" } }, { name: "add_table", args: fixed }] },
      { tools: [{ name: "finish", args: { summary: "Products with prices." } }] },
    );
    const reply = await postBuild(h, key, { prompt: "A price list" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ status: "planned", credit: "charged", database: null, summary: "Products with prices.", usage: summedUsage(4) });
    expect(reply.body.plan).toEqual({ name: "Price list", tables: [fixed], joins: [], seed: {} });
    expect(model.requests).toHaveLength(4);

    // Request 2 carries both problems of answer 1; request 3 the column type problem of answer 2.
    const first = toolResults(model.requests[1]);
    expect(Object.keys(first).sort()).toEqual(["call_0_0", "call_0_1"]);
    expect(first.call_0_0).toMatch(/Invalid input for tool add_table/);
    expect(first.call_0_1).toMatch(/add_index/);
    const second = toolResults(model.requests[2]);
    expect(JSON.parse(second.call_1_0)).toEqual({ ok: false, problems: [expect.stringMatching(/^columns\[1\]\.type: type must be one of varchar, text, int/)] });
    expect(JSON.parse(toolResults(model.requests[3]).call_2_1)).toEqual({ ok: true });

    const steps = reply.body.steps as { tool: string; ok: boolean; error?: string }[];
    expect(steps.map((s) => [s.tool, s.ok])).toEqual([
      ["add_table", false],
      ["add_index", false],
      ["add_table", false],
      ["set_database_name", true],
      ["add_table", true],
      ["finish", true],
    ]);
    expect(steps[2].error).toMatch(/^columns\[1\]\.type: type must be one of/);
    expect(steps.filter((s) => s.ok).every((s) => s.error === undefined)).toBe(true);

    // The planned build applies later, once.
    const applied = await h.request("POST", `/api/v1/ai/builds/${reply.body.id}/apply`, { key });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ name: "Price list", tables: [{ name: "products" }] });
    const again = await h.request("POST", `/api/v1/ai/builds/${reply.body.id}/apply`, { key });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: { error: "conflict", message: `AI build ${reply.body.id} is applied; only a planned build can be applied.` },
    });
    expect((await h.request("GET", `/api/v1/ai/builds/${reply.body.id}`, { key })).body).toMatchObject({ status: "applied", database: applied.body.instance });
    expect(await aiUsage(h, key)).toEqual({ calls: 1, credits: 0 });
  });

  it("AI_TOOLS off: one request offering no tools; the JSON answer (even in a code fence) is the plan", async () => {
    const { key } = await h.createAccount();
    h.app.config.ai = { ...aiConfig(model.baseUrl), tools: false };
    const answer = { name: "Soap shop", summary: SUMMARY, tables: [CATEGORIES], joins: [], seed: { categories: CATEGORY_ROWS.rows } };
    model.script({ text: `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`` });
    const reply = await postBuild(h, key, { prompt: "A shop for handmade soap" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ status: "planned", summary: SUMMARY, credit: "charged", usage: summedUsage(1), steps: [{ tool: "json_plan", input: answer, ok: true }] });
    expect(reply.body.plan).toEqual({ name: "Soap shop", tables: [CATEGORIES], joins: [], seed: { categories: CATEGORY_ROWS.rows } });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].tools).toBeUndefined();

    model.script({ text: "Sorry, I can only chat." });
    const prose = await postBuild(h, key, { prompt: "A shop for handmade soap" });
    expect({ status: prose.status, body: prose.body }).toEqual({ status: 422, body: { error: "ai_plan_invalid", message: "The model's answer was not a JSON plan." } });
    expect(await aiUsage(h, key)).toEqual({ calls: 1, credits: 0 });
  });

  it("shows a build to its creator only: another account gets 404 for it and an empty history", async () => {
    const mine = await h.createAccount();
    const stranger = await h.createAccount();
    model.script(...SOAP_SHOP);
    const { body } = await postBuild(h, mine.key, { prompt: "A shop for handmade soap" });
    const read = await h.request("GET", `/api/v1/ai/builds/${body.id}`, { key: stranger.key });
    expect({ status: read.status, body: read.body }).toEqual({ status: 404, body: { error: "not_found", message: `AI build ${body.id} was not found.` } });
    const apply = await h.request("POST", `/api/v1/ai/builds/${body.id}/apply`, { key: stranger.key });
    expect(apply.status).toBe(404);
    expect(await builds(h, stranger.key)).toEqual([]);
    expect((await builds(h, mine.key, "planned")).map((b) => b.id)).toEqual([body.id]);
  });
});
