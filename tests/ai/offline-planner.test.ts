// The offline planner maps a prompt to an app template by keywords, and every plan it returns passes the same
// validation the agent's plans do. validatePlan reuses the management and data API validators; no database here.
import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../lib/ai/offline-domains";
import { proposeJoinOffline } from "../../lib/ai/offline-join";
import { type OfflinePlan, planOffline, stem } from "../../lib/ai/offline-planner";
import { type DraftPlan, emptyPlan, validatePlan } from "../../lib/ai/plan";
import type { ColumnDef, DatabaseSchema } from "../../lib/schema/types";
import { CASES, SHOP } from "./offline-cases";

const planFor = (prompt: string): OfflinePlan => {
  const result = planOffline(prompt);
  if ("error" in result) throw new Error(`no plan for ${JSON.stringify(prompt)}: ${result.error}`);
  return result;
};

describe("planOffline maps prompts to app templates", () => {
  it("has 20 different prompts that together reach every domain", () => {
    expect(new Set(CASES.map(([prompt]) => prompt)).size).toBe(20);
    expect(new Set(CASES.map(([, domain]) => domain))).toEqual(new Set(DOMAINS.map((d) => d.key)));
  });

  it.each(CASES)("%s → %s", (prompt, domain, tables) => {
    const result = planFor(prompt);
    expect(result.domain).toBe(domain);
    expect(result.plan.tables.map((t) => t.name)).toEqual(tables);
  });

  it.each(CASES)("the plan for %s passes validatePlan with no errors", (prompt) => {
    const { plan } = planFor(prompt);
    const result = validatePlan(plan);
    expect(result.errors).toEqual([]);
    expect(result.plan?.tables.map((t) => t.name)).toEqual(plan.tables.map((t) => t.name));
  });

  it.each(CASES)("the plan for %s has a dropdown, a reference, a join and 3 to 5 seed rows per table", (prompt) => {
    const { plan } = planFor(prompt);
    const columns = plan.tables.flatMap((t) => t.columns);
    expect(plan.tables.length).toBeGreaterThanOrEqual(2);
    expect(plan.tables.length).toBeLessThanOrEqual(4);
    expect(columns.some((c) => c.type === "dropdown" && Array.isArray(c.options) && c.options.length > 1)).toBe(true);
    expect(columns.some((c) => c.type === "reference" && typeof c.references === "string")).toBe(true);
    expect(plan.joins.length).toBe(1);
    expect(plan.joins[0].joins.every((j) => j.on.length > 0)).toBe(true);
    expect(plan.joins[0].columns.every((c) => c.as.length > 0)).toBe(true);
    expect(Object.keys(plan.seed).sort()).toEqual(plan.tables.map((t) => t.name).sort());
    for (const rows of Object.values(plan.seed)) {
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(rows.length).toBeLessThanOrEqual(5);
    }
  });

  it.each([
    ["A shop for handmade soap", "Handmade soap shop"],
    ["I need a backend for my bakery's online orders", "Bakery shop"],
    ["track support tickets for our SaaS", "SaaS helpdesk"],
    ["Appointment booking for a hair salon", "Hair salon bookings"],
    ["a CRM called Acme Leads with deals", "Acme Leads"],
    ["a school with students, courses and grades", "School"],
  ])("names the database after the prompt: %s → %s", (prompt, name) => {
    const { plan, summary } = planFor(prompt);
    expect(plan.name).toBe(name);
    expect(summary).toContain(`"${name}"`);
  });

  it.each([
    ["categories", "category"],
    ["classes", "class"],
    ["boxes", "box"],
    ["tickets", "ticket"],
    ["status", "status"],
    ["business", "business"],
    ["bus", "bus"],
  ])("matches plurals by their singular: %s → %s", (word, singular) => {
    expect(stem(word)).toBe(singular);
  });

  it("keeps a long subject within the 80-character database name limit", () => {
    const { plan } = planFor(`a shop for ${"very ".repeat(30)}fancy soap`);
    expect(plan.name.length).toBeGreaterThan(0);
    expect(plan.name.length).toBeLessThanOrEqual(80);
    expect(validatePlan(plan).errors).toEqual([]);
  });

  it("gives the same plan for the same prompt, even after a caller edited the first one", () => {
    const first = planFor("A shop for handmade soap");
    first.plan.tables.pop();
    first.plan.seed.customers[0].name = "changed";
    const again = planFor("A shop for handmade soap");
    expect(again.plan.tables.map((t) => t.name)).toEqual(SHOP);
    expect(again.plan.seed.customers[0].name).toBe("Ada Lovelace");
    expect(planFor("A shop for handmade soap")).toEqual(again);
  });

  it.each(["asdf qwerty zxcv", "", "What's the weather like tomorrow?"])("refuses a prompt it cannot map: %j", (prompt) => {
    const result = planOffline(prompt);
    expect(result).toEqual({ error: expect.any(String) });
    const { error } = result as { error: string };
    expect(error).toMatch(/^The offline planner \(used because no AI model is configured\) could not tell what kind of app this is\./);
    for (const domain of DOMAINS) expect(error).toContain(domain.title);
    expect(error).toContain("Rephrase the prompt");
  });
});

const soapShop = (): DraftPlan => ({
  name: "Soap shop",
  tables: [
    { name: "categories", columns: [{ name: "title", type: "varchar", length: 80, nullable: false, unique: true }] },
    {
      name: "products",
      columns: [
        { name: "name", type: "varchar", length: 100, nullable: false },
        { name: "price", type: "decimal", precision: 8, scale: 2 },
        { name: "size", type: "dropdown", options: ["small", "large"] },
        { name: "category_id", type: "reference", references: "categories" },
      ],
    },
  ],
  joins: [
    {
      name: "products_with_categories",
      base: "products",
      joins: [{ table: "categories", on: [["products.category_id", "categories.id"]] }],
      columns: [{ column: "products.name", as: "product" }, { column: "categories.title", as: "category" }],
    },
  ],
  seed: {
    categories: [{ title: "Bars" }, { title: "Liquid" }],
    products: [{ name: "Lavender bar", price: 6.5, size: "small", category_id: 1 }, { name: "Hand wash", price: 9, size: "large", category_id: 2 }],
  },
});

const shopDatabase = (): DatabaseSchema => ({
  id: 7,
  instance: "shop_k2m9xa",
  name: "Shop",
  ownerId: 1,
  engine: "sqlite",
  physical: "/tmp/none.db",
  version: 1,
  tables: new Map([["customers", { id: 1, name: "customers", columns: [{ name: "email", type: "varchar", length: 255, nullable: false, unique: true }] }]]),
  joins: new Map([["customer_list", { id: 1, name: "customer_list", base: "customers", joins: [], columns: [{ column: "customers.email", as: "email" }] }]]),
});

describe("validatePlan", () => {
  it("accepts a valid plan and returns its columns normalised like the management API", () => {
    const { plan, errors } = validatePlan(soapShop());
    expect(errors).toEqual([]);
    expect(plan?.name).toBe("Soap shop");
    expect(plan?.tables[1].columns).toEqual([
      { name: "name", type: "varchar", length: 100, nullable: false, unique: false },
      { name: "price", type: "decimal", precision: 8, scale: 2, nullable: true, unique: false },
      { name: "size", type: "dropdown", options: ["small", "large"], nullable: true, unique: false },
      { name: "category_id", type: "reference", references: "categories", nullable: true, unique: false, index: true },
    ]);
    expect(plan?.joins).toEqual(soapShop().joins);
    expect(plan?.seed).toEqual(soapShop().seed);
  });

  it("refuses a reference to a table planned later", () => {
    const draft = soapShop();
    draft.tables.reverse();
    expect(validatePlan(draft)).toEqual({
      errors: [{ field: "tables[0].columns[3].references", code: "reference_order", message: 'table "categories" must be planned before "products" to be referenced by it' }],
    });
  });

  it("refuses a reference to a table that is neither planned nor existing, with the column validator's own error", () => {
    const draft = soapShop();
    draft.tables[1].columns[3].references = "brands";
    expect(validatePlan(draft).errors).toEqual([{ field: "tables[1].columns[3].references", code: "unknown_table", message: 'table "brands" does not exist' }]);
  });

  it("refuses an unknown column type, and leaves the join and seed rows of that table until it is fixed", () => {
    const draft = soapShop();
    draft.tables[1].columns[1].type = "money";
    expect(validatePlan(draft)).toEqual({
      errors: [{ field: "tables[1].columns[1].type", code: "invalid_type", message: expect.stringMatching(/^type must be one of varchar, text, int/) }],
    });
  });

  it("refuses a seed value of the wrong type, with its path", () => {
    const draft = soapShop();
    draft.seed.products[1].price = "cheap";
    expect(validatePlan(draft).errors).toEqual([{ field: "seed.products[1].price", code: "invalid_type", message: '"price" must be a number' }]);
  });

  it("refuses a dropdown seed value that is not one of the options", () => {
    const draft = soapShop();
    draft.seed.products[0].size = "medium";
    expect(validatePlan(draft).errors).toEqual([{ field: "seed.products[0].size", code: "not_an_option", message: '"size" must be one of: small, large' }]);
  });

  it("refuses a seed reference to a row that is not planned, and allows the last planned one", () => {
    const draft = soapShop();
    draft.seed.products[1].category_id = 3;
    expect(validatePlan(draft).errors).toEqual([
      { field: "seed.products[1].category_id", code: "seed_reference", message: '"category_id" points at row 3 of categories, which has 2 seed rows' },
    ]);
    draft.seed.categories.push({ title: "Gift sets" });
    expect(validatePlan(draft).errors).toEqual([]);
  });

  it("refuses seed rows missing a required column, repeating a unique value, or past 50 per table", () => {
    const draft = soapShop();
    draft.seed.categories = [{ title: "Bars" }, { title: "BARS" }, ...Array.from({ length: 49 }, (_, i) => ({ title: `c${i}` }))];
    draft.seed.products[0] = { price: 1 };
    expect(validatePlan(draft).errors).toEqual([
      { field: "seed.categories", code: "too_many_rows", message: "at most 50 seed rows per table; got 51" },
      { field: "seed.categories[1].title", code: "duplicate", message: '"title" is unique and "BARS" appears in an earlier seed row' },
      { field: "seed.products[0].name", code: "required", message: '"name" is required' },
    ]);
  });

  it("refuses seed rows for a table the plan does not create", () => {
    const draft = soapShop();
    draft.seed.brands = [{ name: "Acme" }];
    expect(validatePlan(draft).errors).toEqual([{ field: "seed.brands", code: "unknown_table", message: 'seed rows can only go into a table of this plan; "brands" is not one' }]);
  });

  it("refuses a join on an unknown column, with the field prefixed by the join's place", () => {
    const draft = soapShop();
    draft.joins[0].joins[0].on = [["products.category", "categories.id"]];
    expect(validatePlan(draft).errors).toEqual([
      { field: "joins[0].joins[0].on[0]", code: "unknown_column", message: 'joins[0].on[0]: "products.category" is not a "table.column" of this database' },
    ]);
  });

  it("refuses a table planned twice and a join named like a table or another join", () => {
    const draft = soapShop();
    draft.tables.push({ name: "categories", columns: [] });
    draft.joins.push({ ...draft.joins[0] }, { ...draft.joins[0], name: "products" });
    expect(validatePlan(draft).errors).toEqual([
      { field: "tables[2].name", code: "duplicate", message: 'table "categories" is planned twice' },
      { field: "joins[1].name", code: "duplicate", message: '"products_with_categories" is already planned as a table or join; tables and joins share names' },
      { field: "joins[2].name", code: "duplicate", message: '"products" is already planned as a table or join; tables and joins share names' },
    ]);
  });

  it("requires a database name and a table for a new database", () => {
    expect(validatePlan(emptyPlan()).errors).toEqual([
      { field: "name", code: "invalid_name", message: "name must be text of 1 to 80 characters" },
      { field: "tables", code: "required", message: "a new database needs at least one table" },
    ]);
    expect(validatePlan({ ...soapShop(), name: "x".repeat(81) }).errors).toEqual([{ field: "name", code: "invalid_name", message: "name must be text of 1 to 80 characters" }]);
  });

  describe("extending a database", () => {
    const orders = (): DraftPlan => ({
      name: "",
      tables: [{ name: "orders", columns: [{ name: "customer_id", type: "reference", references: "customers", nullable: false }, { name: "status", type: "dropdown", options: ["new", "paid"] }] }],
      joins: [{ name: "orders_with_customers", base: "orders", joins: [{ table: "customers", on: [["orders.customer_id", "customers.id"]] }], columns: [{ column: "orders.status", as: "status" }, { column: "customers.email", as: "email" }] }],
      seed: { orders: [{ customer_id: 1, status: "new" }] },
    });

    it("should allow no name, references and joins to existing tables, and seed rows pointing at existing rows", () => {
      const { plan, errors } = validatePlan(orders(), shopDatabase());
      expect(errors).toEqual([]);
      expect(plan?.name).toBe("Shop");
      expect(plan?.joins.map((j) => j.name)).toEqual(["orders_with_customers"]);
    });

    it("should allow an empty extension: no table is required", () => {
      expect(validatePlan(emptyPlan(), shopDatabase()).errors).toEqual([]);
    });

    it("should block planned tables and joins whose names are taken, and seed rows for existing tables", () => {
      const draft = orders();
      draft.tables.push({ name: "customer_list", columns: [] });
      draft.joins[0].name = "customers";
      draft.seed.customers = [{ email: "a@example.com" }];
      expect(validatePlan(draft, shopDatabase()).errors).toEqual([
        { field: "tables[1].name", code: "name_taken", message: '"customer_list" is already a table or join of database "shop_k2m9xa"' },
        { field: "joins[0].name", code: "name_taken", message: '"customers" is already a table or join of database "shop_k2m9xa"' },
        { field: "seed.customers", code: "unknown_table", message: 'seed rows can only go into a table of this plan; "customers" is not one' },
      ]);
    });
  });
});

describe("proposeJoinOffline", () => {
  const column = (name: string, type: ColumnDef["type"], extra: Partial<ColumnDef> = {}): ColumnDef => ({ name, type, nullable: true, unique: false, ...extra });
  const library = (): DatabaseSchema => ({
    ...shopDatabase(),
    name: "Library",
    joins: new Map(),
    tables: new Map([
      ["authors", { id: 1, name: "authors", columns: [column("name", "varchar")] }],
      ["books", { id: 2, name: "books", columns: [column("title", "varchar"), column("author_id", "reference", { references: "authors" }), column("secret", "password")] }],
    ]),
  });

  it("joins the named tables on their reference, with unique output names even when the reference is named after its table", () => {
    const proposal = proposeJoinOffline(library(), "books with their authors");
    expect(proposal).toEqual({
      join: {
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
      summary: "Offline proposal: books joined to authors on books.author_id.",
    });
    const { join } = proposal as { join: DraftPlan["joins"][number] };
    expect(validatePlan({ name: "", tables: [], joins: [join], seed: {} }, library()).errors).toEqual([]);
  });

  it("names what it needs when no table references another", () => {
    const schema = library();
    schema.tables.get("books")!.columns.splice(1, 1);
    expect(proposeJoinOffline(schema, "books with their authors")).toEqual({
      error: '"Library" has no reference column between two tables, so there is nothing to join on; add one (type reference) first.',
    });
  });
});
