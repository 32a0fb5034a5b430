import { expect, test } from "@playwright/test";
import { shot, signIn, VIEWPORT } from "./helpers";

// Indexes in the schema editor as the operator (made by 01): a column's Index and Searchable checkboxes, a
// reference column's index shown and locked, an index over two columns added (a bad column named in the form),
// then removed.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };

test.use({ viewport: VIEWPORT });

test("indexes: a column's Index checkbox and a table's indexes over several columns", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, OWNER);

  let instance = "";
  await test.step("a database with makers and products, through the management API", async () => {
    const made = await page.request.post("/api/v1/databases", {
      data: {
        name: "Indexed shop",
        tables: [
          { name: "makers", columns: [{ name: "name", type: "varchar" }] },
          {
            name: "products",
            columns: [
              { name: "category", type: "varchar", length: 20 },
              { name: "price", type: "decimal", precision: 10, scale: 2 },
              { name: "maker_id", type: "reference", references: "makers" },
            ],
          },
        ],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    instance = (await made.json()).instance;
  });

  await test.step("the column dialog indexes a column; the grid tags it", async () => {
    await page.goto(`/databases/${instance}/schema?table=products`);
    const grid = page.getByRole("table", { name: "Columns of products" });
    await expect(grid.getByRole("row", { name: /maker_id/ })).toContainText("INDEX");
    await expect(grid.getByRole("row", { name: /category/ })).not.toContainText("INDEX");
    await page.getByRole("button", { name: "Edit column category" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Index").check();
    await dialog.getByRole("button", { name: "Save column" }).click();
    await expect(dialog).toBeHidden();
    await expect(grid.getByRole("row", { name: /category/ })).toContainText("INDEX");
    await page.getByRole("button", { name: "Edit column maker_id" }).click();
    await expect(page.getByRole("dialog").getByLabel("Index")).toBeChecked();
    await expect(page.getByRole("dialog").getByLabel("Index")).toBeDisabled();
    await shot(page, "11-indexes-column-dialog");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  });

  await test.step("the column dialog makes a text column searchable, kept in the API; a number column has no such box", async () => {
    await page.getByRole("button", { name: "Edit column category" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("through trigrams on SQLite; MariaDB scans");
    await dialog.getByLabel("Searchable").check();
    await dialog.getByRole("button", { name: "Save column" }).click();
    await expect(dialog).toBeHidden();
    const table = await (await page.request.get(`/api/v1/databases/${instance}/tables/products`)).json();
    expect(table.columns.find((c: { name: string }) => c.name === "category").searchable).toBe(true);
    await page.getByRole("button", { name: "Edit column category" }).click();
    await expect(page.getByRole("dialog").getByLabel("Searchable")).toBeChecked();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Edit column price" }).click();
    await expect(page.getByRole("dialog").getByLabel("Searchable")).toHaveCount(0);
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  });

  await test.step("an index over (category, price): a wrong column is named, the right one is listed and kept in the API", async () => {
    const panel = page.getByRole("region", { name: "Indexes of products" });
    await expect(panel).toContainText("None yet.");
    await panel.getByLabel("Columns, in order").fill("category, cost");
    await panel.getByRole("button", { name: "Add index" }).click();
    await expect(panel).toContainText('"cost" is not a column of table "products"');
    await panel.getByLabel("Columns, in order").fill("category, price");
    await panel.getByRole("button", { name: "Add index" }).click();
    await expect(panel.getByRole("listitem")).toHaveText(/category_price\s*\(category, price\)/);
    const table = await (await page.request.get(`/api/v1/databases/${instance}/tables/products`)).json();
    expect(table.indexes).toEqual([{ name: "category_price", columns: ["category", "price"], unique: false }]);
    await shot(page, "11-indexes-panel");
    await panel.getByRole("button", { name: "Remove" }).click();
    await expect(panel).toContainText("None yet.");
    expect((await (await page.request.get(`/api/v1/databases/${instance}/tables/products`)).json()).indexes).toEqual([]);
  });
});
