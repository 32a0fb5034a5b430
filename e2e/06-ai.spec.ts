import { expect, type Page, test } from "@playwright/test";
import { nav, shot, signIn, VIEWPORT } from "./helpers";

// The AI builder end to end with the offline planner (the e2e server has no AI_BASE_URL): a sentence on the
// Databases page → progress → the plan → Apply → the new database's docs and rows → the build history → a
// prompt it cannot map → the Joins page's AI mode. Signs in as the operator made by 01-dashboard.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const PROMPT = "A soap shop: customers, products with a price and a category (bars, liquid, gift sets), orders of customers with a status (pending, paid, shipped), and order items of orders";
const JOIN = "order_items_with_orders_and_products";
const UNMAPPED = "Quantum flux capacitor calibration";
const JOIN_PROMPT = "Show each order with its customer";

test.use({ viewport: VIEWPORT });

const RUNNING_URL = /\/api\/v1\/ai\/builds\?status=running$/;

/** A build as `GET /ai/builds?status=running` answers it while the agent works. */
const runningBuild = (prompt: string, fields: { offline: boolean; model: string; steps: { tool: string; input: unknown; ok: boolean; error?: string }[] }) => ({
  id: 999_999,
  status: "running",
  prompt,
  summary: "",
  plan: null,
  usage: null,
  credit: "none",
  database: null,
  error: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  ...fields,
});

/**
 * The offline planner answers in milliseconds, too fast to see a build run. To show the progress, the POST is
 * held in the browser until released, and the running-build poll answers `running` (the steps a model would
 * have made so far). Returns the release.
 */
const holdBuild = async (page: Page, running: ReturnType<typeof runningBuild>) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(RUNNING_URL, (route) => route.fulfill({ json: [running] }));
  await page.route("**/api/v1/ai/builds", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await held;
    await route.continue();
  });
  return async () => {
    release();
    await page.unroute(RUNNING_URL);
    await page.unroute("**/api/v1/ai/builds");
  };
};

test("the AI builder turns a sentence into a database, keeps the build, and proposes a join", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, OWNER);
  let instance = "";
  let name = "";

  await test.step("before anything is generated, the builder says no model is configured, what the offline planner can and cannot do, and how to connect one", async () => {
    const notice = page.getByRole("region", { name: "AI builder" }).getByRole("region", { name: "No AI model configured" });
    await expect(notice.getByRole("heading", { level: 3 })).toHaveText("No AI model is configured: the built-in offline planner plans (free)");
    await expect(notice).toContainText("It can build from your sentence’s own words: each thing you name in the plural becomes a table");
    await expect(notice).toContainText("It cannot guess tables you did not name");
    await expect(notice).toContainText("To connect a model, start the server with AI_BASE_URL set to an OpenAI-compatible endpoint");
    await shot(page, "ai-00-offline-notice");
  });

  await test.step("a sentence on the Databases page: each step of the running build, then the plan", async () => {
    const builder = page.getByRole("region", { name: "AI builder" });
    await builder.getByLabel("Describe your app in a sentence").fill(PROMPT);
    const release = await holdBuild(
      page,
      runningBuild(PROMPT, {
        offline: false,
        model: "e2e-model",
        steps: [
          { tool: "set_database_name", input: { name: "Soap shop" }, ok: true },
          { tool: "add_column", input: { table: "orders", column: { name: "status", type: "dropdown" } }, ok: false, error: "options: a dropdown needs at least one option" },
        ],
      }),
    );
    await builder.getByRole("button", { name: "Generate" }).click();
    await expect(builder.getByRole("progressbar", { name: "e2e-model is planning: 2 steps so far…" })).toBeVisible();
    const steps = builder.getByRole("list", { name: "Steps" }).getByRole("listitem");
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(0)).toContainText("set_database_name“Soap shop”");
    await expect(steps.nth(0).getByLabel("ok")).toBeVisible();
    await expect(steps.nth(1)).toContainText("add_columnorders.status dropdown");
    await expect(steps.nth(1).getByLabel("error")).toBeVisible();
    await expect(steps.nth(1)).toContainText("options: a dropdown needs at least one option");
    await expect(builder.getByRole("button", { name: "Generating…" })).toBeDisabled();
    await shot(page, "ai-01-progress");
    await release();

    const preview = builder.getByRole("region", { name: "Plan preview" });
    await expect(preview).toBeVisible();
    await expect(builder.getByRole("list", { name: "Steps" })).toHaveCount(0);
    name = (await preview.getByRole("heading", { level: 3 }).textContent()) ?? "";
    expect(name).toMatch(/shop/i);
    await expect(preview).toContainText("4 tables, 1 join and 12 sample rows.");
    await expect(preview).toContainText("offline planner");
    await expect(preview.getByLabel("Cost")).toHaveText("Free (offline)");
    const tables = preview.getByRole("region", { name: "Tables", exact: true }).getByRole("article");
    await expect(tables).toHaveCount(4);
    const orders = preview.getByRole("article", { name: "Planned table orders" });
    await expect(orders.getByRole("list", { name: "Options of status" }).getByRole("listitem")).toHaveText(["pending", "paid", "shipped"]);
    await expect(preview.getByRole("article", { name: "Planned table products" }).getByRole("list", { name: "Options of category" }).getByRole("listitem")).toHaveText(["bars", "liquid", "gift sets"]);
    await expect(orders.locator('li[data-column="customer_id"]')).toContainText("reference→ customers.id");
    await expect(preview.getByRole("article", { name: "Planned table order_items" }).locator('li[data-column="product_id"]')).toContainText("→ products.id");
    const join = preview.getByRole("article", { name: `Planned join ${JOIN}` });
    await expect(join.getByLabel("Joined tables")).toHaveText(/^order_items base⋈orders⋈products$/);
    await expect(join.getByRole("list", { name: "Key pairs" }).getByRole("listitem")).toHaveText(["order_items.order_id = orders.id", "order_items.product_id = products.id"]);
    await expect(join.getByRole("list", { name: "Output columns" })).toContainText("product ← products.name");
    const customers = preview.getByRole("table", { name: "Seed rows of customers" });
    await expect(customers.locator("tbody tr")).toHaveCount(3);
    await expect(customers).toContainText("Ada Lovelace");
    await expect(preview.getByRole("table", { name: "Seed rows of products" }).locator("tbody tr")).toHaveCount(3);
    await shot(page, "ai-02-preview");
  });

  await test.step("Apply creates it and opens the new database", async () => {
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page).toHaveURL(/\/databases\/[a-z0-9_]+\/schema$/);
    instance = /\/databases\/([^/]+)\/schema/.exec(page.url())![1];
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByRole("list", { name: "Tables" }).getByRole("listitem")).toHaveText([/^customers/, /^products/, /^orders/, /^order_items/]);
  });

  await test.step("its API Docs list every table and the join's path", async () => {
    await page.getByRole("link", { name: "API Docs" }).click();
    for (const [tag, op] of [["customers", "listCustomers"], ["products", "listProducts"], ["orders", "listOrders"], ["order_items", "listOrderItems"]]) {
      await expect(page.locator(`#operations-${tag}-${op}`)).toBeVisible({ timeout: 20_000 });
    }
    const joinOp = page.locator(`#operations-${JOIN}-listOrderItemsWithOrdersAndProductsJoin`);
    await expect(joinOp).toBeVisible();
    await expect(joinOp.locator(".opblock-summary-path")).toHaveText(`/${JOIN}`);
    await shot(page, "ai-03-api-docs");
  });

  await test.step("the tables hold the seed rows", async () => {
    await page.goto(`/databases/${instance}/data?table=customers`);
    const customers = page.getByRole("table", { name: "Records of customers" });
    await expect(customers.locator("tbody tr")).toHaveCount(3);
    await expect(customers.locator('tr[data-record-id="1"]')).toContainText("Ada Lovelace");
    await page.goto(`/databases/${instance}/data?table=orders`);
    const orders = page.getByRole("table", { name: "Records of orders" });
    await expect(orders.locator("tbody tr")).toHaveCount(3);
    await expect(orders.locator('tr[data-record-id="2"] td[data-column="status"]')).toHaveText("shipped");
  });

  await test.step("the history lists the build as applied, with its database; its page shows the plan", async () => {
    await nav(page).getByRole("link", { name: "AI builds" }).click();
    await expect(page).toHaveURL(/\/ai$/);
    const row = page.getByRole("table", { name: "AI builds" }).locator("tbody tr").filter({ hasText: PROMPT });
    await expect(row).toHaveCount(1);
    await expect(row.locator('td[data-column="status"]')).toHaveText("applied");
    await expect(row.locator('td[data-column="planner"]')).toHaveText("offline planner");
    await expect(row.locator('td[data-column="cost"]')).toHaveText("Free (offline)");
    await expect(row.locator('td[data-column="database"]')).toHaveText(instance);
    await shot(page, "ai-04-history");
    await row.getByRole("link", { name: PROMPT }).click();
    await expect(page).toHaveURL(/\/ai\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`“${PROMPT}”`);
    await expect(page.getByRole("region", { name: "Agent steps" })).toContainText("The offline planner reads the sentence in one go");
    await expect(page.getByRole("region", { name: "Plan", exact: true })).toContainText(`Applied to ${instance}`);
    await expect(page.getByRole("button", { name: "Apply", exact: true })).toHaveCount(0);
  });

  await test.step("a prompt naming fewer than two things is refused, saying what was understood and a phrasing to try", async () => {
    await page.goto("/databases");
    const builder = page.getByRole("region", { name: "AI builder" });
    await builder.getByLabel("Describe your app in a sentence").fill(UNMAPPED);
    const release = await holdBuild(page, runningBuild(UNMAPPED, { offline: true, model: "offline", steps: [] }));
    await builder.getByRole("button", { name: "Generate" }).click();
    await expect(builder.getByRole("progressbar", { name: "Planning offline…" })).toBeVisible();
    await release();
    const alert = builder.getByRole("alert");
    await expect(alert).toContainText('The offline planner (used because no AI model is configured) understood no things to keep track of for "Quantum flux capacitor calibration"');
    await expect(alert).toContainText('Try a sentence like "A veterinary clinic: owners, their pets with a species');
    await expect(builder.getByRole("region", { name: "Plan preview" })).toHaveCount(0);
  });

  await test.step("Extend with AI plans additions only, labelled as such, and applies them to the database", async () => {
    await page.goto(`/databases/${instance}/schema`);
    await page.getByRole("button", { name: "Extend with AI" }).click();
    const dialog = page.getByRole("dialog", { name: `Extend ${name} with AI` });
    await dialog.getByLabel("Describe what to add in a sentence").fill("Add a blog with authors, posts and comments");
    await dialog.getByRole("button", { name: "Generate" }).click();
    const preview = dialog.getByRole("region", { name: "Plan preview" });
    await expect(preview).toContainText(`Additions to ${name}`);
    await expect(preview).toContainText("Adds 3 new tables, 1 new join and 9 new rows.");
    const added = preview.getByRole("region", { name: "Tables to add", exact: true }).getByRole("article");
    await expect(added).toHaveText([/^authorsnew table/, /^postsnew table/, /^commentsnew table/]);
    await expect(preview.getByRole("article", { name: "Planned join posts_with_authors" })).toContainText("new join");
    await expect(preview.getByRole("region", { name: "Rows to add", exact: true }).getByRole("table")).toHaveCount(3);
    // The preview scrolls inside the dialog (at most 85% of the viewport's height): a tall viewport shows all of it.
    await page.setViewportSize({ width: VIEWPORT.width, height: 2300 });
    await page.screenshot({ path: "test-results/screens/ai-05-extend-preview.png" });
    await page.setViewportSize(VIEWPORT);
    await dialog.getByRole("button", { name: "Apply additions" }).click();
    await expect(page).toHaveURL(new RegExp(`/databases/${instance}/schema\\?table=authors$`));
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Tables" }).getByRole("listitem")).toHaveCount(7);
    // What the sentence named, and nothing a template would add: authors get their name, not an email.
    await expect(page.getByRole("table", { name: "Columns of authors" }).locator('tr[data-column="name"]')).toBeVisible();
    await expect(page.getByRole("table", { name: "Columns of authors" }).locator('tr[data-column="email"]')).toHaveCount(0);
  });

  await test.step("the Joins page's AI mode proposes a join; saving it adds it to the list", async () => {
    await page.goto(`/databases/${instance}/joins`);
    await expect(page.getByRole("listitem", { name: `Join ${JOIN}` })).toBeVisible();
    await page.getByRole("tab", { name: "AI" }).click();
    await page.getByLabel("Describe the join in a sentence").fill(JOIN_PROMPT);
    await page.getByRole("button", { name: "Propose join" }).click();
    const proposal = page.getByRole("region", { name: "Proposed join" });
    const card = proposal.getByRole("article", { name: "Planned join orders_with_customers" });
    await expect(card).toBeVisible();
    await expect(card.getByLabel("Joined tables")).toHaveText(/^orders base⋈customers$/);
    await expect(card.getByRole("list", { name: "Key pairs" }).getByRole("listitem")).toHaveText(["orders.customer_id = customers.id"]);
    await expect(card).toContainText(`GET /v1/${instance}/orders_with_customers`);
    await expect(proposal.getByRole("table", { name: "Join preview" })).toContainText("Ada Lovelace");
    await shot(page, "ai-06-join-proposal");
    await proposal.getByRole("button", { name: "Save join" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText(`Saved: GET /v1/${instance}/orders_with_customers`);
    await expect(page.getByRole("listitem", { name: "Join orders_with_customers" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Proposed join" })).toHaveCount(0);
    await shot(page, "ai-07-join-saved");
  });
});
