import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, gridAction, openFilters, rowAction, shot, signInOrSetUp } from "./helpers";

// Daily work in the grid, as the owner made by 01, at 1280 px light and 390 px dark: values checked before
// sending, a grid showing 15+ rows with frozen first column, hidden columns, row menu and inline reference
// picker, saved views, the SQL console, the CSV import report with both modes alike, and axe on each page.

const makeDatabase = async (page: Page, name: string) => {
  const made = await page.request.post("/api/v1/databases", {
    data: {
      name,
      tables: [
        { name: "authors", columns: [{ name: "name", type: "varchar", length: 80, nullable: false }] },
        {
          name: "books",
          columns: [
            { name: "title", type: "varchar", length: 100, nullable: false },
            { name: "price", type: "decimal", precision: 10, scale: 2 },
            { name: "author_id", type: "reference", references: "authors" },
            { name: "status", type: "dropdown", options: ["draft", "live"] },
            { name: "published", type: "date" },
            { name: "seen_at", type: "datetime" },
          ],
        },
        { name: "measures", columns: [{ name: "ratio", type: "float" }, { name: "views", type: "bigint" }] },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `daily ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  expect((await page.request.post(`/v1/${instance}/authors`, { headers, data: [{ name: "Ursula K. Le Guin" }, { name: "Octavia Butler" }] })).status()).toBe(201);
  const books = Array.from({ length: 40 }, (_, i) => ({ title: `Book ${String(i + 1).padStart(2, "0")}`, price: 10 + i, author_id: (i % 2) + 1, status: i % 4 === 0 ? "draft" : "live" }));
  expect((await page.request.post(`/v1/${instance}/books`, { headers, data: books })).status()).toBe(201);
  return { instance, headers };
};

const grid = (page: Page, table = "books") => page.getByRole("table", { name: `Records of ${table}` });

for (const v of FLOW_VIEWPORTS) {
  test.describe(`at ${v.width} px, ${v.theme}`, () => {
    test.use({ viewport: { width: v.width, height: v.height }, colorScheme: v.theme });
    const tag = `${v.width}-${v.theme}`;

    test("values, grid, saved views, SQL console and CSV import", async ({ page }) => {
      test.setTimeout(240_000);
      await page.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), v.theme);
      await signInOrSetUp(page);
      const { instance, headers } = await makeDatabase(page, `Daily ${tag}`);

      await test.step("1: a float of 1e400 and a bigint out of range are named before sending; nothing is stored", async () => {
        await page.goto(`/databases/${instance}/data?table=measures`);
        await page.getByRole("button", { name: "Add record" }).click();
        const dialog = page.getByRole("dialog", { name: "Add a record to measures" });
        await dialog.locator("#field-ratio").fill("1e400");
        await dialog.locator("#field-views").fill("9007199254740993");
        await dialog.getByRole("button", { name: "Add record" }).click();
        await expect(dialog.locator("#field-ratio-error")).toHaveText('"ratio" must be a finite number (at most about 1.8e308 in magnitude)');
        await expect(dialog.locator("#field-views-error")).toContainText('"views" must be between');
        await dialog.locator("#field-ratio").fill("1.5");
        await expect(dialog.locator("#field-ratio-error")).toHaveCount(0);
        await dialog.getByRole("button", { name: "Cancel" }).click();
        expect(await (await page.request.get(`/v1/${instance}/measures`, { headers })).json()).toEqual([]);
      });

      await test.step("4: rows labelled, filters folded (remembered), 15+ rows, frozen first column, row menu, hidden columns", async () => {
        await page.goto(`/databases/${instance}/data?table=books`);
        // The table list (a drop-down on a phone) shows each table's row count.
        if (v.width === 1280) await expect(page.getByRole("link", { name: /books\s*40 rows/ })).toBeVisible();
        else await expect(page.getByRole("combobox", { name: "Table", exact: true }).locator("option:checked")).toHaveText("books (40 rows)");
        await expect(page.getByRole("button", { name: /^Filters and sort/ })).toHaveAttribute("aria-expanded", "false");
        await expect(grid(page).locator("tbody tr").first()).toBeInViewport();
        if (v.width === 1280) {
          const inView = await grid(page).locator("tbody tr").evaluateAll((rows) => rows.filter((r) => r.getBoundingClientRect().bottom <= window.innerHeight).length);
          expect(inView).toBeGreaterThanOrEqual(15);
        }
        const idCell = grid(page).locator('tr[data-record-id="1"] td[data-column="id"]');
        expect(await idCell.evaluate((el) => getComputedStyle(el).position)).toBe("sticky");
        await grid(page).getByRole("button", { name: "Actions for record 1", exact: true }).click();
        await expect(grid(page).getByRole("menuitem")).toHaveText(["Edit", "Delete"]);
        await page.keyboard.press("Escape");
        await page.getByRole("button", { name: /^Columns/ }).click();
        await page.getByRole("checkbox", { name: "seen_at" }).click();
        await expect(grid(page).getByRole("columnheader", { name: /^seen_at/ })).toHaveCount(0);
        expect(page.url()).toContain("hide=seen_at");
        await page.getByRole("button", { name: /^Columns/ }).click();
        await openFilters(page);
        await page.reload();
        await expect(page.getByRole("button", { name: /^Filters and sort/ })).toHaveAttribute("aria-expanded", "true");
        // The screenshot (the whole page) shows the rows, their references named: taken once the page has them.
        await expect(grid(page).locator("tbody tr")).toHaveCount(25);
        await expect(grid(page).locator('tr[data-record-id="1"] td[data-column="author_id"]')).toHaveText("Ursula K. Le Guin#1");
        // The table list (a drop-down on a phone) shows each table's row count.
        if (v.width === 1280) await expect(page.getByRole("link", { name: /books\s*40 rows/ })).toBeVisible();
        else await expect(page.getByRole("combobox", { name: "Table", exact: true }).locator("option:checked")).toHaveText("books (40 rows)");
        await shot(page, `i27-grid-${tag}`);
        await expectAxeClean(page, `data ${tag}`);
      });

      await test.step("4: a reference cell edits with the search picker", async () => {
        await grid(page).locator('tr[data-record-id="1"] td[data-column="author_id"]').dblclick();
        const picker = grid(page).getByRole("combobox", { name: /author_id/ });
        await picker.fill("oct");
        await page.getByRole("option", { name: /Octavia Butler/ }).click();
        await expect(grid(page).locator('tr[data-record-id="1"] td[data-column="author_id"]')).toHaveText("Octavia Butler#2");
      });

      await test.step("3: save a shared view of the filtered grid, then apply it from a clean grid", async () => {
        await page.goto(`/databases/${instance}/data?table=books&q=status%3Ddraft%26_sort%3D-price&hide=seen_at,published`);
        await expect(grid(page).locator("tbody tr")).toHaveCount(10);
        await page.getByRole("button", { name: "Save view" }).click();
        await page.getByLabel("View name").fill("Drafts, dearest first");
        await page.getByLabel("Shared with the workspace").check();
        await page.getByRole("form", { name: "Save this view" }).getByRole("button", { name: "Save" }).click();
        await expect(page.getByLabel("Saved view")).toHaveValue(/\d+/);
        await page.goto(`/databases/${instance}/data?table=books`);
        await page.getByLabel("Saved view").selectOption({ label: "Drafts, dearest first (shared)" });
        await expect(grid(page).locator("tbody tr")).toHaveCount(10);
        await expect(grid(page).getByRole("columnheader", { name: /^published/ })).toHaveCount(0);
        expect(decodeURIComponent(page.url())).toContain("status=draft&_sort=-price");
        await page.screenshot({ path: `test-results/screens/i27-saved-view-${tag}.png` });
      });

      await test.step("2: the SQL console runs a SELECT into the grid, refuses a DELETE with why, keeps snippets", async () => {
        await page.goto(`/databases/${instance}/sql`);
        const editor = page.getByTestId("sql-console-editor");
        await editor.locator(".monaco-editor").click();
        await page.keyboard.press("ControlOrMeta+A");
        await page.keyboard.press("Delete");
        // Inserted whole: typed key by key, Monaco's completion list (table and column names) may take a key.
        await page.keyboard.insertText("SELECT title, price FROM books WHERE price > 45 ORDER BY price DESC");
        await page.getByRole("button", { name: /^Run/ }).click();
        await expect(page.getByTestId("sql-summary")).toContainText("4 rows in");
        const result = page.getByRole("table", { name: "Records of query result" });
        await expect(result.locator("tbody tr").first()).toContainText("Book 40");
        await page.getByLabel("Snippet name").fill("Dear books");
        await page.getByRole("button", { name: "Save snippet" }).click();
        await expect(page.getByLabel("Saved snippets")).toHaveValue("Dear books");
        await page.screenshot({ path: `test-results/screens/i27-sql-console-${tag}.png`, fullPage: true });
        await expectAxeClean(page, `sql ${tag}`);
        await editor.locator(".monaco-editor").click();
        await page.keyboard.press("ControlOrMeta+A");
        await page.keyboard.insertText("DELETE FROM books");
        await page.getByRole("button", { name: /^Run/ }).click();
        await expect(page.getByRole("alert").filter({ hasText: "Only a SELECT" })).toBeVisible();
        expect((await (await page.request.get(`/v1/${instance}/books?_limit=1`, { headers: { ...headers, prefer: "count=exact" } })).headers())["x-total-count"]).toBe("40");
      });

      await test.step("5: CSV headers matched whatever their case; both modes report alike; Import off after success", async () => {
        await page.goto(`/databases/${instance}/data?table=books`);
        await gridAction(page, "Import CSV");
        const dialog = page.getByRole("dialog", { name: "Import CSV into books" });
        const csv = "TITLE,Price,Author ID\r\nFrom CSV one,5,1\r\nFrom CSV two,x,1\r\nFrom CSV three,7,99\r\n";
        await dialog.getByLabel(/CSV file/).setInputFiles({ name: "books.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
        await expect(dialog.getByLabel("Source for title")).toHaveValue("TITLE");
        await expect(dialog.getByLabel("Source for author_id")).toHaveValue("Author ID");
        await dialog.getByLabel("All or nothing").check();
        await dialog.getByRole("button", { name: "Import" }).click();
        await expect(dialog.getByRole("status")).toHaveText("0 rows imported; 2 problems:");
        const all = await dialog.getByRole("listitem").allTextContents();
        await dialog.getByLabel("Valid rows only").check();
        await dialog.getByRole("button", { name: "Import" }).click();
        await expect(dialog.getByRole("status")).toHaveText("1 row imported; 2 problems:");
        expect(await dialog.getByRole("listitem").allTextContents()).toEqual(all);
        await expect(dialog.getByRole("listitem").nth(1)).toContainText("no row 99 in authors");
        await expect(dialog.getByRole("button", { name: "Import" })).toBeDisabled();
        await page.screenshot({ path: `test-results/screens/i27-import-report-${tag}.png`, fullPage: true });
        await dialog.getByRole("button", { name: "Close" }).click();
      });

      await test.step("5: a datetime has a picker beside the typed value; a date input takes typing", async () => {
        await page.getByRole("button", { name: "Add record" }).click();
        const dialog = page.getByRole("dialog", { name: "Add a record to books" });
        await expect(dialog.locator("#field-published")).toHaveAttribute("type", "date");
        await dialog.getByLabel("Pick seen_at (UTC)").fill("2025-03-04T05:06:07");
        await expect(dialog.locator("#field-seen_at")).toHaveValue("2025-03-04T05:06:07Z");
        await dialog.getByRole("button", { name: "Cancel" }).click();
      });

      await test.step("7: a favicon, no 404; the public docs page follows the theme", async () => {
        expect((await page.request.get("/favicon.ico")).status()).toBe(200);
        expect((await page.request.put(`/api/v1/databases/${instance}/docs`, { data: { public: true } })).status()).toBe(200);
        await page.goto(`/docs/${instance}`);
        await expect(page.getByTestId("docs-title")).toBeVisible();
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).toBe(v.theme === "dark" ? "rgb(10, 16, 32)" : "rgb(248, 250, 252)");
      });
    });
  });
}
