import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, shot, signIn } from "./helpers";

// Grid reads in the dashboard, as the owner made by 01, at 1280 px light and 390 px dark: reference cells named
// through `_expand` in the page read itself (the inline picker kept), the group-by summary over the grid's
// filters (`_aggregate`), cursor paging of a table past 10,000 rows (`_after` from the Link header), and the
// table list's row counts following live inserts and deletes.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const CATEGORIES = [{ name: "Tools" }, { name: "Garden" }, { name: "Kitchen" }];
// 15 Tools (prices 10–24), 10 Garden (25–34), 5 Kitchen (35–39).
const PRODUCTS = Array.from({ length: 30 }, (_, i) => ({ title: `Product ${String(i + 1).padStart(2, "0")}`, price: 10 + i, category_id: i < 15 ? 1 : i < 25 ? 2 : 3 }));
const EVENTS = 10_050;

const makeDatabase = async (page: Page, name: string) => {
  const made = await page.request.post("/api/v1/databases", {
    data: {
      name,
      tables: [
        { name: "categories", columns: [{ name: "name", type: "varchar", length: 40, unique: true, nullable: false }] },
        {
          name: "products",
          columns: [
            { name: "title", type: "varchar", length: 80, nullable: false },
            { name: "price", type: "decimal", precision: 10, scale: 2 },
            { name: "category_id", type: "reference", references: "categories" },
          ],
        },
        { name: "events", columns: [{ name: "n", type: "int" }] },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `reads ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  const post = async (table: string, data: unknown[]) => expect((await page.request.post(`/v1/${instance}/${table}`, { headers, data })).status()).toBe(201);
  await post("categories", CATEGORIES);
  await post("products", PRODUCTS);
  for (let from = 0; from < EVENTS; from += 1000) await post("events", Array.from({ length: Math.min(1000, EVENTS - from) }, (_, i) => ({ n: from + i + 1 })));
  return { instance, headers };
};

const grid = (page: Page, table: string) => page.getByRole("table", { name: `Records of ${table}` });
const cell = (page: Page, id: number, column: string) => grid(page, "products").locator(`tr[data-record-id="${id}"] td[data-column="${column}"]`);
const summaryRows = (page: Page) => page.getByRole("table", { name: /^Rows per / }).locator("tbody tr");
/** A table in the table list with its row count: a link at 1280 px, an option of the Table drop-down on a phone. */
const tableLink = (page: Page, table: string) =>
  page.viewportSize()!.width >= 768
    ? page.getByRole("link", { name: new RegExp(`^${table}\\s`) })
    : page.getByRole("combobox", { name: "Table", exact: true }).locator("option", { hasText: new RegExp(`^${table}\\s`) });
const pages = (page: Page) => page.getByRole("navigation", { name: "Pages" });
const firstId = (page: Page) => grid(page, "events").locator("tbody tr").first();

for (const v of FLOW_VIEWPORTS) {
  test.describe(`at ${v.width} px, ${v.theme}`, () => {
    test.use({ viewport: { width: v.width, height: v.height }, colorScheme: v.theme });
    const tag = `${v.width}-${v.theme}`;

    test("expanded references, the group-by summary, cursor pages and live row counts", async ({ page }) => {
      test.setTimeout(240_000);
      await page.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), v.theme);
      await signIn(page, OWNER);
      const { instance, headers } = await makeDatabase(page, `Reads ${tag}`);
      const dataUrl = `/databases/${instance}/data?table=products`;

      await test.step("reference cells are named from the page read's own _expand: no read of categories", async () => {
        const categoryReads: string[] = [];
        // The table list's row count reads categories with `_limit=1` alone: not a reference read.
        page.on("request", (r) => r.url().includes(`/v1/${instance}/categories?`) && !r.url().endsWith("?_limit=1") && categoryReads.push(r.url()));
        const read = page.waitForRequest((r) => r.url().includes(`/v1/${instance}/products?`));
        await page.goto(dataUrl);
        await expect(cell(page, 1, "category_id")).toHaveText("Tools#1");
        await expect(cell(page, 16, "category_id")).toHaveText("Garden#2");
        await expect(cell(page, 25, "category_id")).toHaveText("Garden#2");
        expect((await read).url()).toContain("_expand=category_id");
        expect(categoryReads).toEqual([]);
        await shot(page, `i26-expand-${tag}`);
        await expectAxeClean(page, `expanded references ${tag}`);
      });

      await test.step("the summary, folded at first, counts and sums per category largest first, over the grid's filters", async () => {
        const toggle = page.getByRole("button", { name: /^Summary by column/ });
        await expect(toggle).toHaveAttribute("aria-expanded", "false");
        await toggle.click();
        await expect(page.getByLabel("Group by")).toHaveValue("category_id");
        await expect(page.getByLabel("Sum of")).toHaveValue("price");
        await expect(summaryRows(page)).toHaveCount(3);
        await expect(summaryRows(page).nth(0).locator("td")).toHaveText(["Tools#1", "15", "", "255.00"]);
        await expect(summaryRows(page).nth(1).locator("td")).toHaveText(["Garden#2", "10", "", "295.00"]);
        await expect(summaryRows(page).nth(2).locator("td")).toHaveText(["Kitchen#3", "5", "", "185.00"]);
        await shot(page, `i26-summary-${tag}`);
        await expectAxeClean(page, `summary ${tag}`);

        // The grid's filters (price > 20 leaves 4 Tools) reach the summary's read.
        await page.goto(`${dataUrl}&q=${encodeURIComponent("price_gt=20&_limit=25&_offset=0")}`);
        const read = page.waitForRequest((r) => r.url().includes(`/v1/${instance}/products/_aggregate?`));
        await page.getByRole("button", { name: /^Summary by column/ }).click();
        expect((await read).url()).toContain("price_gt=20");
        await expect(summaryRows(page).nth(0).locator("td")).toHaveText(["Garden#2", "10", "", "295.00"]);
        await expect(summaryRows(page).nth(2).locator("td")).toHaveText(["Tools#1", "4", "", "90.00"]);
        await page.getByLabel("Sum of").selectOption("");
        await expect(page.getByRole("table", { name: "Rows per category_id" }).getByRole("columnheader")).toHaveCount(3);
        await page.getByRole("button", { name: /^Summary by column/ }).click();
        await expect(page.getByRole("table", { name: /^Rows per / })).toHaveCount(0);
      });

      await test.step("live: an insert and a delete through the API change the summary and the table list's counts", async () => {
        await page.goto(dataUrl);
        await page.getByRole("button", { name: /^Summary by column/ }).click();
        await expect(page.getByRole("status", { name: "Live updates: Live" })).toBeVisible();
        await expect(tableLink(page, "products")).toContainText("30 rows");
        const added = await page.request.post(`/v1/${instance}/products`, { headers, data: { title: "New", price: 1, category_id: 3 } });
        expect(added.status()).toBe(201);
        await expect(tableLink(page, "products")).toContainText("31 rows");
        await expect(summaryRows(page).nth(2).locator("td")).toHaveText(["Kitchen#3", "6", "", "186.00"]);
        expect((await page.request.post(`/v1/${instance}/categories`, { headers, data: { name: "Toys" } })).status()).toBe(201);
        await expect(tableLink(page, "categories")).toContainText("4 rows");
        expect((await page.request.delete(`/v1/${instance}/products/${(await added.json()).id}`, { headers })).status()).toBe(204);
        await expect(tableLink(page, "products")).toContainText("30 rows");
      });

      await test.step("inline edit of a reference keeps the search picker; the cell shows the new name", async () => {
        await cell(page, 1, "category_id").dblclick();
        await grid(page, "products").getByRole("combobox", { name: /category_id/ }).fill("gar");
        await page.getByRole("option", { name: /Garden/ }).click();
        await expect(cell(page, 1, "category_id")).toHaveText("Garden#2");
        await expect(summaryRows(page).nth(0).locator("td")).toHaveText(["Tools#1", "14", "", "245.00"]);
      });

      await test.step("past 10,000 rows, Next and Previous follow the Link cursor; page N stays true; a way back to offsets", async () => {
        await page.goto(`/databases/${instance}/data?table=events`);
        await expect(tableLink(page, "events")).toContainText("10,050 rows");
        await expect(pages(page)).toContainText("Page 1 of 402 · rows 1–25 of 10,050");
        await expect(firstId(page)).toHaveAttribute("data-record-id", "1");
        const next = page.waitForRequest((r) => r.url().includes(`/v1/${instance}/events?`) && r.url().includes("_after="));
        await pages(page).getByRole("button", { name: "Next" }).click();
        const cursorRead = await next;
        expect(cursorRead.url()).not.toContain("_offset");
        expect(cursorRead.headers().prefer).toBeUndefined();
        await expect(pages(page)).toContainText("Page 2 of 402 · rows 26–50 of 10,050");
        await expect(firstId(page)).toHaveAttribute("data-record-id", "26");
        await pages(page).getByRole("button", { name: "Next" }).click();
        await expect(pages(page)).toContainText("Page 3 of 402 · rows 51–75");
        await expect(firstId(page)).toHaveAttribute("data-record-id", "51");
        await shot(page, `i26-cursor-${tag}`);
        await expectAxeClean(page, `cursor pages ${tag}`);
        await pages(page).getByRole("button", { name: "Previous" }).click();
        await expect(pages(page)).toContainText("Page 2 of 402");
        await expect(firstId(page)).toHaveAttribute("data-record-id", "26");
        await pages(page).getByRole("button", { name: "First page" }).click();
        await expect(pages(page)).toContainText("Page 1 of 402");
        await expect(firstId(page)).toHaveAttribute("data-record-id", "1");
        await pages(page).getByLabel("Go to page").fill("100");
        await pages(page).getByRole("button", { name: "Go", exact: true }).click();
        await expect(pages(page)).toContainText("Page 100 of 402 · rows 2,476–2,500");
        await expect(firstId(page)).toHaveAttribute("data-record-id", "2476");
        await pages(page).getByRole("button", { name: "Next" }).click();
        await expect(pages(page)).toContainText("Page 101 of 402");
        await expect(firstId(page)).toHaveAttribute("data-record-id", "2501");
        await pages(page).getByLabel("Rows per page").selectOption("100");
        await expect(pages(page)).toContainText("Page 1 of 101 · rows 1–100 of 10,050");
        await expect(grid(page, "events").locator("tbody tr")).toHaveCount(100);
      });
    });
  });
}
