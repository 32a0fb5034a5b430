import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, openFilters, signInOrSetUp } from "./helpers";

// The grid on a wide and long table (30 columns, 5,000 rows): the row count above the rows, a header that stays
// while the rows scroll, a sideways scrollbar on screen with the rows (not only at the table's end), columns as
// wide as their content, a quick search over the text columns at once, and a filter panel that leaves rows in view.
// On a phone the table list is a drop-down and the rarer actions fold into a menu, so the first rows show with the
// filter panel open.

const ROWS = 5000;
const TEXT = ["name", "sku", "colour", "supplier", "city", "country", "material", "brand", "category", "size", "warehouse", "contact"];

const columns = [
  ...TEXT.map((name) => ({ name, type: "varchar", length: 60 })),
  { name: "notes", type: "text" },
  { name: "description", type: "text" },
  { name: "summary", type: "text" },
  ...["stock", "reorder_at", "shelf", "aisle", "weight_g"].map((name) => ({ name, type: "int" })),
  { name: "price", type: "decimal", precision: 10, scale: 2 },
  { name: "cost", type: "decimal", precision: 10, scale: 2 },
  { name: "active", type: "boolean" },
  { name: "fragile", type: "boolean" },
  { name: "received_on", type: "date" },
  { name: "expires_on", type: "date" },
  { name: "counted_at", type: "datetime" },
  { name: "status", type: "dropdown", options: ["active", "archived", "draft"] },
  { name: "attributes", type: "json" },
  { name: "barcode", type: "bigint" },
];

// Values as long as real ones: company names, addresses, e-mail addresses.
const LONG: Record<string, (i: number) => string> = {
  supplier: (i) => `Northwind Trading Company ${i}`,
  city: () => "Aix-en-Provence",
  material: () => "Anodised aluminium alloy",
  warehouse: (i) => `Unit ${i % 40}, Harbour Road Industrial Estate`,
  contact: (i) => `purchasing.${i}@northwind-trading.example`,
};

const row = (i: number) => ({
  ...Object.fromEntries(TEXT.map((name) => [name, LONG[name]?.(i) ?? `${name} ${i}`])),
  name: i === 17 ? "Blue falcon" : `Item ${i}`,
  notes: i === 4000 ? "a falcon feather in the box" : `Notes for item ${i}`,
  description: `A longer description of item ${i}, long enough to be cut at the column's width`,
  summary: `Summary ${i}`,
  stock: i % 97,
  reorder_at: 10,
  shelf: i % 40,
  aisle: i % 12,
  weight_g: 100 + i,
  price: (i % 500) + 0.5,
  cost: (i % 300) + 0.25,
  active: i % 2 === 0,
  fragile: i % 5 === 0,
  received_on: "2026-03-14",
  expires_on: "2027-03-14",
  counted_at: "2026-06-01T09:30:00Z",
  status: ["active", "archived", "draft"][i % 3],
  attributes: { bin: i % 9 },
  barcode: 4006381333931 + i,
});

const makeTable = async (page: Page) => {
  const made = await page.request.post("/api/v1/databases", { data: { name: "Wide grid", tables: [{ name: "items", columns }, { name: "notes", columns: [{ name: "body", type: "text" }] }] } });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `wide ${instance}`, database: instance } })).json()).key as string;
  for (let from = 1; from <= ROWS; from += 1000) {
    const batch = Array.from({ length: 1000 }, (_, i) => row(from + i));
    const sent = await page.request.post(`/v1/${instance}/items/_bulk`, { headers: { "x-api-key": key }, data: batch });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  return instance;
};

const grid = (page: Page) => page.getByRole("table", { name: "Records of items" });
const scroller = (page: Page) => page.getByTestId("grid-scroller");

/** The scroller's box and scroll state, and where the header row and the first data row are drawn. */
const layout = (page: Page) =>
  scroller(page).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const head = el.querySelector("thead th:nth-child(3)")!.getBoundingClientRect();
    const first = el.querySelector("tbody tr")!.getBoundingClientRect();
    // Fully visible columns, counted from the header cells inside the scroller's visible width.
    const fit = [...el.querySelectorAll("thead th")].filter((th) => th.getBoundingClientRect().right <= box.right + 0.5).length;
    return {
      top: box.top,
      bottom: box.bottom,
      // Headless Chromium draws no scrollbars: that the box scrolls sideways and ends on screen is what is checked.
      overflowX: getComputedStyle(el).overflowX,
      wide: el.scrollWidth > el.clientWidth,
      headTop: head.top,
      firstRowTop: first.top,
      firstRowBottom: first.bottom,
      fit,
      window: window.innerHeight,
    };
  });

test("a wide and long table: count on top, sticky header, reachable scrollbar, fitted widths, quick search", async ({ page }) => {
  test.setTimeout(150_000);
  await signInOrSetUp(page);
  const instance = await makeTable(page);
  const link = `/databases/${instance}/data?table=items`;

  for (const look of FLOW_VIEWPORTS) {
    await test.step(`${look.width} px, ${look.theme}`, async () => {
      await page.setViewportSize({ width: look.width, height: look.height });
      await page.emulateMedia({ colorScheme: look.theme });
      await page.evaluate((theme) => (localStorage.setItem("tabula-theme", theme), localStorage.setItem("tabula.filters-open", "0")), look.theme);
      await page.goto(link);
      if (look.theme === "dark") await expect(page.locator("html")).toHaveClass(/dark/);
      else await expect(page.locator("html")).not.toHaveClass(/dark/);
      await expect(grid(page).locator("tbody tr")).toHaveCount(25);

      // The count is above the rows, readable without scrolling to the pager.
      const count = page.getByTestId("row-count");
      await expect(count).toHaveText("5,000 records");
      expect((await count.boundingBox())!.y).toBeLessThan((await scroller(page).boundingBox())!.y);

      // The tables: a list beside the grid at 1280 px, one drop-down on a phone; the same for the rarer actions.
      const list = page.getByRole("list", { name: "Tables" });
      const picker = page.getByRole("combobox", { name: "Table", exact: true });
      const more = page.getByRole("button", { name: "More", exact: true });
      if (look.width === 1280) {
        await expect(list.getByRole("link", { name: /^items/ })).toHaveAttribute("aria-current", "page");
        await expect(page.getByRole("button", { name: "Export CSV" })).toBeVisible();
        await expect(picker).toBeHidden();
        await expect(more).toBeHidden();
      } else {
        await expect(list).toBeHidden();
        await expect(picker).toHaveValue("items");
        await expect(page.getByRole("button", { name: "Export CSV" })).toBeHidden();
        await more.click();
        await expect(page.getByRole("menu", { name: "More actions" }).getByRole("menuitem")).toHaveText(["Export CSV", "Recently deleted", "Import CSV"]);
        await expectAxeClean(page, `wide grid actions menu ${look.width} ${look.theme}`);
        await page.screenshot({ path: `test-results/screens/235-wide-grid-menu-${look.width}-${look.theme}.png` });
        await page.keyboard.press("Escape");
        await expect(page.getByRole("menu")).toHaveCount(0);
      }

      // The grid's box scrolls sideways itself and ends on screen, so its scrollbar is there with the first rows.
      const start = await layout(page);
      await page.screenshot({ path: `test-results/screens/230-wide-grid-${look.width}-${look.theme}.png` });
      expect(start.wide).toBe(true);
      expect(start.overflowX).toBe("auto");
      // At 1280 px it ends in the first screen; on a phone at most one screen down.
      if (look.width === 1280) expect(start.bottom).toBeLessThanOrEqual(start.window);
      else expect(start.bottom - start.top).toBeLessThanOrEqual(start.window);
      if (look.width === 1280) expect(start.fit, "columns fully visible at 1280 px").toBeGreaterThanOrEqual(8);

      // Scrolled down inside the grid, the header row stays at its top.
      await scroller(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      const scrolled = await layout(page);
      expect(Math.abs(scrolled.headTop - scrolled.top)).toBeLessThanOrEqual(2);
      expect(scrolled.firstRowTop).toBeLessThan(scrolled.top);
      await page.screenshot({ path: `test-results/screens/231-wide-grid-scrolled-${look.width}-${look.theme}.png` });

      // Scrolled sideways too: the header still labels the columns in view.
      await scroller(page).evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect(grid(page).getByRole("columnheader", { name: /barcode/ })).toBeInViewport();
      await page.screenshot({ path: `test-results/screens/232-wide-grid-end-${look.width}-${look.theme}.png` });

      // The open filter panel leaves the first rows on screen.
      await page.evaluate(() => window.scrollTo(0, 0));
      await openFilters(page);
      await expect(page.locator("#filter-panel")).toBeVisible();
      await scroller(page).evaluate((el) => el.scrollTo({ top: 0, left: 0 }));
      const withPanel = await layout(page);
      // The panel scrolls within at most 38% of the window; at 1280 px three rows still show below it.
      const panel = (await page.locator("#filter-panel").boundingBox())!;
      expect(panel.height).toBeLessThanOrEqual(0.38 * withPanel.window + 1);
      if (look.width === 1280) expect(withPanel.firstRowTop + 120, "three rows below the open filter panel, without scrolling").toBeLessThanOrEqual(withPanel.window);
      // On a phone too, the whole first row shows below the open panel without scrolling the page.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(withPanel.firstRowBottom, "the first row on the first screen, with the filter panel open").toBeLessThanOrEqual(withPanel.window);
      await expectAxeClean(page, `wide grid filters ${look.width} ${look.theme}`);
      await page.screenshot({ path: `test-results/screens/233-wide-grid-filters-${look.width}-${look.theme}.png` });
    });
  }

  await test.step("on a phone the drop-down opens another table", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(link);
    await page.getByRole("combobox", { name: "Table", exact: true }).selectOption("notes");
    await expect(page).toHaveURL(/[?&]table=notes(&|$)/);
    await expect(page.getByRole("region", { name: "Data of notes" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Table", exact: true })).toHaveValue("notes");
  });

  await test.step("the quick search reads every text column at once, in the API's own OR grammar", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(link);
    const search = page.getByRole("searchbox", { name: "Search the text columns" });
    await search.fill("FALCON");
    // One match is in name, the other in notes: one OR group of `_ilike` filters over the text columns.
    await expect(grid(page).locator('tbody td[data-column="id"]')).toHaveText(["17", "4000"]);
    await expect(page.getByTestId("row-count")).toHaveText("2 records match");
    await expect(page).toHaveURL(/[?&]search=FALCON(&|$)/);
    await openFilters(page);
    await expect(page.getByTestId("query-preview")).toContainText("_or=name_ilike%3DFALCON%26sku_ilike%3DFALCON");
    // The search is not one of the builder's groups, and a reload keeps it.
    await expect(page.getByRole("group", { name: /OR group/ })).toHaveCount(0);
    await page.reload();
    await expect(search).toHaveValue("FALCON");
    await expect(grid(page).locator("tbody tr")).toHaveCount(2);
    await page.screenshot({ path: "test-results/screens/234-wide-grid-search-1280.png" });
    await search.press("Escape");
    await expect(page.getByTestId("row-count")).toHaveText("5,000 records");
    await expect(page).not.toHaveURL(/search=/);
  });
});
