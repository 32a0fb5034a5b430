import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, shot, signInOrSetUp } from "./helpers";

// Building schemas: quick create, "Add table" and "Add columns" are one compact grid (one row per column with
// name, type, options or reference, default, Required and Unique in line), and several columns are added to a
// table in one save: all of them, or none with the refused one named.

type Spec = { name: string; type: string; options?: string; required?: boolean };

const FOURTEEN: Spec[] = [
  { name: "title", type: "varchar", required: true },
  { name: "subtitle", type: "varchar" },
  { name: "body", type: "text" },
  { name: "price", type: "decimal" },
  { name: "stock", type: "int" },
  { name: "weight", type: "float" },
  { name: "barcode", type: "bigint" },
  { name: "active", type: "boolean" },
  { name: "released", type: "date" },
  { name: "updated", type: "datetime" },
  { name: "status", type: "dropdown", options: "draft, live, archived" },
  { name: "extra", type: "json" },
  { name: "sku", type: "varchar" },
  { name: "notes", type: "text" },
];

const fillRow = async (row: Locator, c: Spec) => {
  await row.getByLabel("Name", { exact: true }).fill(c.name);
  await row.getByLabel("Type", { exact: true }).selectOption(c.type);
  if (c.options) await row.getByLabel("Options").fill(c.options);
  if (c.required) await row.getByLabel("Required").check();
};

const rowsOf = (scope: Locator) => scope.getByRole("list", { name: "Columns" }).getByRole("listitem");

const tableOf = async (page: Page, instance: string, table: string) => {
  const res = await page.request.get(`/api/v1/databases/${instance}/tables/${table}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { columns: { name: string; type: string; nullable: boolean; options?: string[]; default?: unknown }[] };
};

for (const v of FLOW_VIEWPORTS) {
  test.describe(`at ${v.width} px, ${v.theme}`, () => {
    test.use({ viewport: { width: v.width, height: v.height }, colorScheme: v.theme });
    const tag = `${v.width}-${v.theme}`;

    test.beforeEach(async ({ page }) => {
      await page.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), v.theme);
      await signInOrSetUp(page);
    });

    test("quick create lays 14 columns out as a compact grid, one row each", async ({ page }) => {
      test.setTimeout(120_000);
      await page.goto("/databases/new");
      await page.getByLabel("Database name").fill(`Catalog ${tag}`);
      await page.getByRole("button", { name: "Add a table (quick create)" }).click();
      const table = page.getByRole("region", { name: "Table 1" });
      await table.getByLabel("Table 1 name").fill("products");
      for (const [i, c] of FOURTEEN.entries()) {
        if (i > 0) await table.getByRole("button", { name: "Add another column" }).click();
        await fillRow(rowsOf(table).nth(i), c);
      }
      await expect(rowsOf(table)).toHaveCount(14);
      const height = (await table.boundingBox())!.height;
      // One row per column: 14 columns took 4,081 px as one card each.
      expect(height, `quick create table height at ${tag}`).toBeLessThan(v.width >= 1280 ? 900 : 1800);
      console.log(`quick create height ${tag}: ${Math.round(height)} px for 14 columns`);
      if (v.width >= 1280) {
        // Name, type, options, default, Required and Unique share one line.
        const first = rowsOf(table).nth(10);
        const top = async (l: Locator) => (await l.boundingBox())!.y;
        const y = await top(first.getByLabel("Name", { exact: true }));
        for (const part of [first.getByLabel("Type", { exact: true }), first.getByLabel("Options"), first.getByLabel("Default"), first.getByLabel("Required"), first.getByLabel("Unique")]) {
          expect(Math.abs((await top(part)) - y)).toBeLessThan(12);
        }
      }
      await shot(page, `23-quick-create-14-columns-${tag}`);
      await expectAxeClean(page, "quick create with 14 columns");
      await page.getByRole("button", { name: "Create database with 1 table" }).click();
      await expect(page).toHaveURL(/\/databases\/catalog_[a-z0-9_]+\/schema$/);
      const instance = /\/databases\/([^/]+)\/schema/.exec(page.url())![1];
      const made = await tableOf(page, instance, "products");
      expect(made.columns.map((c) => c.name)).toEqual(FOURTEEN.map((c) => c.name));
      expect(made.columns.find((c) => c.name === "status")?.options).toEqual(["draft", "live", "archived"]);
      expect(made.columns.find((c) => c.name === "title")?.nullable).toBe(false);
    });

    test("several columns are added in one save: all of them, or none with the refused one named", async ({ page }) => {
      test.setTimeout(120_000);
      const made = await page.request.post("/api/v1/databases", { data: { name: `Shelf ${tag}`, tables: [{ name: "items", columns: [{ name: "label", type: "varchar" }] }] } });
      expect(made.status()).toBe(201);
      const instance = (await made.json()).instance as string;
      const key = (await (await page.request.post("/api/v1/keys", { data: { name: `seed ${instance}`, database: instance } })).json()).key as string;
      expect((await page.request.post(`/v1/${instance}/items`, { headers: { "x-api-key": key }, data: [{ label: "a" }, { label: "b" }] })).status()).toBe(201);
      const batches: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().includes("/columns")) batches.push(r.url());
      });

      await page.goto(`/databases/${instance}/schema?table=items`);
      await page.getByRole("button", { name: "Add columns" }).click();
      const dialog = page.getByRole("dialog", { name: "Add columns to items" });
      await fillRow(rowsOf(dialog).nth(0), { name: "price", type: "decimal" });
      await dialog.getByRole("button", { name: "Add another column" }).click();
      await fillRow(rowsOf(dialog).nth(1), { name: "status", type: "dropdown", options: "new, used" });
      await rowsOf(dialog).nth(1).getByLabel("Default").selectOption("new");
      await dialog.getByRole("button", { name: "Add another column" }).click();
      await fillRow(rowsOf(dialog).nth(2), { name: "shelf", type: "int", required: true });
      await dialog.getByRole("button", { name: "Add 3 columns" }).click();

      const refused = rowsOf(dialog).nth(2);
      await expect(refused.getByRole("alert")).toContainText("Required");
      await expect(refused.getByRole("alert")).toContainText("2 rows");
      await expect(dialog.getByText("Nothing was added")).toBeVisible();
      expect((await tableOf(page, instance, "items")).columns.map((c) => c.name)).toEqual(["label"]);
      await shot(page, `23-add-columns-refused-${tag}`);
      await expectAxeClean(page, "add columns with a refused column");

      await refused.getByLabel("Default").fill("1");
      await dialog.getByRole("button", { name: "Add 3 columns" }).click();
      await expect(dialog).toBeHidden();
      const after = await tableOf(page, instance, "items");
      expect(after.columns.map((c) => c.name)).toEqual(["label", "price", "status", "shelf"]);
      expect(after.columns.find((c) => c.name === "status")?.default).toBe("new");
      expect(batches.length, "one request per save").toBe(2);
      expect(batches.every((u) => u.endsWith("/tables/items/columns/batch"))).toBe(true);
      for (const name of ["price", "status", "shelf"]) await expect(page.locator(`tr[data-column="${name}"]`)).toBeVisible();
    });

    test("Add table takes its columns in the same grid", async ({ page }) => {
      test.setTimeout(90_000);
      const made = await page.request.post("/api/v1/databases", { data: { name: `Tags ${tag}`, tables: [{ name: "posts", columns: [{ name: "title", type: "varchar" }] }] } });
      const instance = (await made.json()).instance as string;
      await page.goto(`/databases/${instance}/schema`);
      await page.getByRole("button", { name: "Add table" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a table" });
      await dialog.getByLabel("Table name").fill("tags");
      await fillRow(rowsOf(dialog).nth(0), { name: "label", type: "varchar", required: true });
      await dialog.getByRole("button", { name: "Add another column" }).click();
      await fillRow(rowsOf(dialog).nth(1), { name: "post_id", type: "reference" });
      await rowsOf(dialog).nth(1).getByLabel("References table").selectOption("posts");
      await expect(rowsOf(dialog).nth(1).getByLabel("References table")).toContainText("reference to posts");
      await shot(page, `23-add-table-grid-${tag}`);
      await expectAxeClean(page, "add table dialog");
      await dialog.getByRole("button", { name: "Add table" }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/table=tags/);
      expect((await tableOf(page, instance, "tags")).columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
        ["label", "varchar", false],
        ["post_id", "reference", true],
      ]);
    });
  });
}
