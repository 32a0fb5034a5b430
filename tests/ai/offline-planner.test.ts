// The offline planner reads the sentence: the entities, attributes and relations it names become tables,
// typed columns and references, checked for 47 sentences across unrelated domains; every plan passes the same
// validation the agent's plans do (validatePlan reuses the management and data API validators; no database here).
import { describe, expect, it } from "vitest";
import { proposeJoinOffline } from "../../lib/ai/offline-join";
import { type OfflinePlan, planOffline } from "../../lib/ai/offline-planner";
import { type DraftPlan, emptyPlan, validatePlan } from "../../lib/ai/plan";
import type { ColumnDef, DatabaseSchema } from "../../lib/schema/types";
import { CASES, type Case } from "./offline-cases";

const planFor = (prompt: string): OfflinePlan => {
  const result = planOffline(prompt);
  if ("error" in result) throw new Error(`no plan for ${JSON.stringify(prompt)}: ${result.error}`);
  return result;
};

const column = (plan: DraftPlan, key: string) => {
  const [table, name] = key.split(".");
  return plan.tables.find((t) => t.name === table)?.columns.find((c) => c.name === name);
};

/** "pets" and "pet", "check-ins" and "check_in" count as one word. */
const stemOf = (word: string) => word.replace(/ies$/, "y").replace(/(s|es)$/, "");
const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).map(stemOf);

/** Table and database names whose words the sentence does not contain: a domain it never mentioned. */
const foreignNames = (sentence: string, plan: DraftPlan) => {
  const said = new Set(wordsOf(sentence));
  return [plan.name, ...plan.tables.map((t) => t.name)].filter((name) => wordsOf(name).some((w) => !said.has(w) && w !== "and"));
};

const recallOf = (c: Case, plan: DraftPlan) => c.tables.filter((t) => plan.tables.some((p) => p.name === t)).length / c.tables.length;

// The old planner's template prompts: those that still name two things must plan only what they name.
const TEMPLATE_PROMPTS = [
  "a school with students, courses and grades",
  "Personal blog with posts, comments and authors",
  "Warehouse inventory with suppliers and stock levels",
  "Lending library: books, members and loans",
  "Online courses platform for teachers and their pupils",
  "Project management tool: tasks, deadlines and who is assigned",
];

describe("planOffline plans what the sentence names", () => {
  it("has at least 40 different sentences, among them the four reference sentences", () => {
    expect(new Set(CASES.map((c) => c.sentence)).size).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    for (const example of ["A veterinary clinic", "Fleet management", "Track gym memberships", "I run a podcast"]) {
      expect(CASES.some((c) => c.sentence.startsWith(example))).toBe(true);
    }
  });

  it.each(CASES)("$sentence", ({ sentence, tables, columns, references }) => {
    const { plan, entities } = planFor(sentence);
    expect(plan.tables.map((t) => t.name).sort()).toEqual([...tables].sort());
    expect(entities.every((e) => tables.includes(e))).toBe(true);
    for (const [key, want] of Object.entries(columns)) {
      const [type, options] = want.split(":");
      expect(column(plan, key)?.type, key).toBe(type);
      if (options) expect(column(plan, key)?.options, key).toEqual(options.split("|"));
      if (key.endsWith(".email")) expect(column(plan, key)?.unique, key).toBe(true);
    }
    for (const ref of references) {
      const [key, target] = ref.split(">");
      expect(column(plan, key), ref).toMatchObject({ type: "reference", references: target });
    }
  });

  it.each(CASES)("the plan for $sentence passes validatePlan, with 3 seed rows per table and a join over its main reference", ({ sentence }) => {
    const { plan } = planFor(sentence);
    expect(validatePlan(plan).errors).toEqual([]);
    for (const t of plan.tables) expect(plan.seed[t.name], t.name).toHaveLength(3);
    const referring = plan.tables.filter((t) => t.columns.some((c) => c.type === "reference"));
    expect(plan.joins).toHaveLength(referring.length ? 1 : 0);
    if (plan.joins.length) expect(referring.map((t) => t.name)).toContain(plan.joins[0].base);
  });

  it("reports entity recall over every sentence, and no plan names a domain its sentence did not mention", () => {
    const plans = CASES.map((c) => ({ c, plan: planFor(c.sentence).plan }));
    const recall = plans.reduce((sum, { c, plan }) => sum + recallOf(c, plan), 0) / plans.length;
    const others = TEMPLATE_PROMPTS.map((p) => ({ sentence: p, plan: planFor(p).plan }));
    const foreign = [...plans.map(({ c, plan }) => ({ sentence: c.sentence, plan })), ...others].filter(({ sentence, plan }) => foreignNames(sentence, plan).length > 0);
    console.info(`offline planner: entity recall ${(recall * 100).toFixed(1)}% over ${plans.length} sentences; plans naming an unmentioned domain: ${foreign.length} of ${plans.length + others.length}`);
    expect(foreign.map(({ sentence, plan }) => [sentence, foreignNames(sentence, plan)])).toEqual([]);
    expect(recall).toBe(1);
  });

  it("templates add no column the sentence did not suggest: the clinic gets no services, staff or clients, and its appointments only a status", () => {
    const { plan } = planFor(CASES[0].sentence);
    expect(plan.tables.map((t) => t.name)).toEqual(["owners", "pets", "appointments"]);
    expect(plan.tables[2].columns.map((c) => c.name)).toEqual(["pet_id", "status"]);
    const blog = planFor("Add a blog with authors, posts and comments").plan;
    expect(blog.tables.find((t) => t.name === "posts")?.columns.map((c) => c.name)).toEqual(["title", "author_id"]);
  });

  it.each([
    ["A veterinary clinic: owners, their pets with species, and appointments with a status", "Veterinary clinic"],
    ["I run a podcast. Episodes, guests, and which guest appeared in which episode", "Podcast"],
    ["A CRM called Acme Leads with companies and contacts of companies", "Acme Leads"],
    ["Episodes, guests, and which guest appeared in which episode", "Episodes and guests"],
  ])("names the database after the sentence: %s → %s", (prompt, name) => {
    const { plan, summary } = planFor(prompt);
    expect(plan.name).toBe(name);
    expect(summary).toContain(`"${name}"`);
  });

  it("says what it read in the summary: tables, references, the join and the sample rows", () => {
    expect(planFor(CASES[0].sentence).summary).toBe(
      'Offline plan for "Veterinary clinic", read from the sentence: 3 tables (owners, pets, appointments), references pets → owners, appointments → pets, the join pets_with_owners and 9 sample rows.',
    );
  });

  it("seed references are 1-based positions among the target's seed rows, and a link table never pairs the same rows twice", () => {
    const { plan } = planFor(CASES[3].sentence);
    expect(plan.seed.guest_episodes).toEqual([{ guest_id: 1, episode_id: 1 }, { guest_id: 2, episode_id: 1 }, { guest_id: 3, episode_id: 2 }]);
    expect(plan.joins[0]).toEqual({
      name: "guest_episodes_with_guests_and_episodes",
      base: "guest_episodes",
      joins: [{ table: "guests", on: [["guest_episodes.guest_id", "guests.id"]] }, { table: "episodes", on: [["guest_episodes.episode_id", "episodes.id"]] }],
      columns: [{ column: "guest_episodes.id", as: "id" }, { column: "guests.name", as: "guest" }, { column: "episodes.title", as: "episode" }],
    });
  });

  it("gives the same plan for the same prompt, even after a caller edited the first one", () => {
    const first = planFor(CASES[0].sentence);
    first.plan.tables.pop();
    first.plan.seed.owners[0].name = "changed";
    const again = planFor(CASES[0].sentence);
    expect(again.plan.tables.map((t) => t.name)).toEqual(["owners", "pets", "appointments"]);
    expect(again.plan.seed.owners[0].name).toBe("Ada Lovelace");
    expect(planFor(CASES[0].sentence)).toEqual(again);
  });

  it("keeps a long subject within the 80-character database name limit", () => {
    const { plan } = planFor(`${"very ".repeat(30)}fancy soap shop: soaps, customers`);
    expect(plan.name.length).toBeGreaterThan(0);
    expect(plan.name.length).toBeLessThanOrEqual(80);
    expect(validatePlan(plan).errors).toEqual([]);
  });

  it("refuses a sentence naming fewer than two things, saying what it understood and how to phrase it", () => {
    expect(planOffline("An online shop selling handmade soap")).toEqual({
      error:
        'The offline planner (used because no AI model is configured) understood no things to keep track of for "online shop"; it needs at least two, named in the plural. ' +
        'Try a sentence like "A veterinary clinic: owners, their pets with a species, and appointments with a date and a status (booked, done, cancelled)", ' +
        "or set AI_BASE_URL to an OpenAI-compatible model for free-form prompts.",
    });
    expect(planOffline("Track my pets with a species and a birthday")).toEqual({ error: expect.stringContaining('understood only "pets" (with species, birthday);') });
  });

  it.each(["asdf qwerty zxcv", "", "What's the weather like tomorrow?"])("refuses a prompt naming nothing: %j", (prompt) => {
    expect(planOffline(prompt)).toEqual({ error: expect.stringMatching(/^The offline planner \(used because no AI model is configured\) understood no things to keep track of/) });
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
