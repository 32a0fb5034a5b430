import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, openFilters, shot, signInOrSetUp } from "./helpers";

// A saved view is updated in place ("Save changes to <view>" beside "Save as new"), and a view whose column was
// renamed since it was saved names that column in the filter bar instead of silently dropping its filter and sort.

const titles = (page: Page) => page.getByRole("table", { name: "Records of books" }).locator('tbody td[data-column="title"]');

test.use({ viewport: { width: 1280, height: 800 } });

test("save changes to a view; a view naming a renamed column says so", async ({ page }) => {
  test.setTimeout(60_000);
  await signInOrSetUp(page);
  const made = await page.request.post("/api/v1/databases", {
    data: { name: "View changes", tables: [{ name: "books", columns: [{ name: "title", type: "varchar", length: 80 }, { name: "price", type: "int" }, { name: "colour", type: "varchar", length: 20 }] }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `views ${instance}`, database: instance } })).json()).key as string;
  const rows = [{ title: "Cheap", price: 5, colour: "red" }, { title: "Middle", price: 15, colour: "blue" }, { title: "Dear", price: 25, colour: "red" }];
  expect((await page.request.post(`/v1/${instance}/books`, { headers: { "x-api-key": key }, data: rows })).status()).toBe(201);
  const views = async () => (await (await page.request.get(`/api/v1/databases/${instance}/tables/books/views`)).json()) as { name: string; query: string; hidden_columns: string[] }[];

  await page.goto(`/databases/${instance}/data?table=books&q=${encodeURIComponent("price_gte=10&_sort=-price")}`);
  await expect(titles(page)).toHaveText(["Dear", "Middle"]);
  await expect(page.getByRole("button", { name: /^Save changes to/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Save view" }).click();
  await page.getByLabel("View name").fill("Dear first");
  await page.getByRole("form", { name: "Save this view" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByLabel("Saved view")).toHaveValue(/\d+/);
  await expect(page.getByRole("button", { name: "Save as new" })).toBeVisible();

  // Change the filter in the grid, then save it into the same view: still one view, with the new query.
  await openFilters(page);
  await page.getByLabel("Value for price_gte").fill("20");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(titles(page)).toHaveText(["Dear"]);
  await page.getByRole("button", { name: "Save changes to Dear first" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved changes to Dear first." })).toBeVisible();
  const [saved, ...others] = await views();
  expect(others).toEqual([]);
  expect(saved.query).toContain("price_gte=20");

  // Rename price → cost: the view still says price; applying it names the column instead of dropping it silently.
  const renamed = await page.request.patch(`/api/v1/databases/${instance}/tables/books/columns/price`, { data: { name: "cost" } });
  expect(renamed.status(), await renamed.text()).toBe(200);
  await page.goto(`/databases/${instance}/data?table=books`);
  await page.getByLabel("Saved view").selectOption({ label: "Dear first" });
  const alert = page.getByRole("alert").filter({ hasText: "no longer has" });
  await expect(alert).toContainText('View "Dear first" uses a column this table no longer has (renamed or dropped): "price" (its filter, its sort).');
  await expect(titles(page)).toHaveCount(3);
  await expectAxeClean(page, "saved view naming a renamed column");
  await shot(page, "220-saved-view-missing-column");

  // Saving changes stores what the grid shows now (no stale column), and the notice goes.
  await page.getByRole("button", { name: "Save changes to Dear first" }).click();
  await expect(alert).toHaveCount(0);
  expect((await views())[0].query).not.toContain("price");
  await shot(page, "221-saved-view-fixed");
});
