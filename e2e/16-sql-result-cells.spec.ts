import { expect, test } from "@playwright/test";
import { expectAxeClean, signInOrSetUp } from "./helpers";

// The SQL console shows every cell as the server sent it: a column named `id` keeps its values (the grid's own
// row key is apart from the cells), and a column's type label says no more than its values show.

test.use({ viewport: { width: 1280, height: 800 } });

test("a query's id column shows the ids, and counts read as integers", async ({ page }) => {
  test.setTimeout(120_000);
  await signInOrSetUp(page);
  const made = await page.request.post("/api/v1/databases", {
    data: { name: "Console ids", tables: [{ name: "items", columns: [{ name: "label", type: "varchar", length: 20 }] }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `ids ${instance}`, database: instance } })).json()).key as string;
  const rows = Array.from({ length: 300 }, (_, i) => ({ label: `item ${i + 1}` }));
  expect((await page.request.post(`/v1/${instance}/items`, { headers: { "x-api-key": key }, data: rows })).status()).toBe(201);

  await page.goto(`/databases/${instance}/sql`);
  const editor = page.getByTestId("sql-console-editor");
  const run = async (sql: string) => {
    await editor.locator(".monaco-editor").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(sql);
    await page.getByRole("button", { name: /^Run/ }).click();
  };
  const result = page.getByRole("table", { name: "Records of query result" });

  await run("SELECT id, label FROM items WHERE id IN (100,200,300) ORDER BY id");
  await expect(page.getByTestId("sql-summary")).toContainText("3 rows in");
  await expect(result.locator('td[data-column="id"]')).toHaveText(["100", "200", "300"]);
  await expect(result.locator('td[data-column="label"]')).toHaveText(["item 100", "item 200", "item 300"]);
  await expect(result.getByRole("columnheader", { name: /^id/ })).not.toContainText("float");
  await page.screenshot({ path: "test-results/screens/sql-ids-1280.png", fullPage: true });

  await run("SELECT COUNT(*) AS n FROM items");
  await expect(result.locator('td[data-column="n"]')).toHaveText(["300"]);
  await expect(result.getByRole("columnheader", { name: /^n/ })).not.toContainText("float");
  await expectAxeClean(page, "sql console result");
});
