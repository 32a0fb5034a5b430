import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, openFilters, rowAction, shot, signIn } from "./helpers";

// The data grid for daily use, as the operator (made by 01): references by name with a picker, inline edit,
// header sort, bulk delete after a confirmation, page jump, the query in the URL, CSV out and in, a form that
// shows every error at once, "required" with a fill value, a saved join reopened and edited, delete asking
// first, and an axe scan of the data, schema and joins pages. At 1280 px and at 390 px.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const AUTHORS = [{ name: "Ursula K. Le Guin" }, { name: "Octavia Butler" }, { name: "Ted Chiang" }];
const BOOKS = Array.from({ length: 60 }, (_, i) => ({
  title: `Book ${String(i + 1).padStart(2, "0")}`,
  price: i === 0 ? 17.5 : 10 + i,
  author_id: (i % 3) + 1,
  status: i % 4 === 0 ? "draft" : "live",
  pages: i % 5 === 0 ? null : 100 + i,
}));

type Setup = { instance: string; key: string };

/** A database with authors and 60 books, and a key for the data API, through the management API. */
const makeDatabase = async (page: Page, name: string): Promise<Setup> => {
  const made = await page.request.post("/api/v1/databases", {
    data: {
      name,
      tables: [
        { name: "authors", columns: [{ name: "name", type: "varchar", length: 80, unique: true, nullable: false }] },
        {
          name: "books",
          columns: [
            { name: "title", type: "varchar", length: 100, nullable: false },
            { name: "price", type: "decimal", precision: 10, scale: 2 },
            { name: "author_id", type: "reference", references: "authors" },
            { name: "status", type: "dropdown", options: ["draft", "live"] },
            { name: "pages", type: "int" },
          ],
        },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const keyReply = await page.request.post("/api/v1/keys", { data: { name: `grid ${instance}`, database: instance } });
  expect(keyReply.status(), await keyReply.text()).toBe(201);
  const key = (await keyReply.json()).key as string;
  const headers = { "x-api-key": key };
  expect((await page.request.post(`/v1/${instance}/authors`, { headers, data: AUTHORS })).status()).toBe(201);
  expect((await page.request.post(`/v1/${instance}/books`, { headers, data: BOOKS })).status()).toBe(201);
  return { instance, key };
};

const grid = (page: Page) => page.getByRole("table", { name: "Records of books" });
const row = (page: Page, id: number) => grid(page).locator(`tr[data-record-id="${id}"]`);
const cell = (page: Page, id: number, column: string) => row(page, id).locator(`td[data-column="${column}"]`);

test.describe("at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the data grid, forms, required-with-fill and saved joins", async ({ page, context }) => {
    test.setTimeout(240_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, OWNER);
    const { instance, key } = await makeDatabase(page, "Grid shop");
    const dataUrl = `/databases/${instance}/data?table=books`;

    await test.step("references show the author's name (expanded in the page read itself), decimals their scale", async () => {
      const reads: string[] = [];
      // The table list's row count reads authors once with `_limit=1`: not a reference read.
      page.on("request", (r) => r.url().includes(`/v1/${instance}/authors?`) && !r.url().endsWith("?_limit=1") && reads.push(r.url()));
      const pages = page.waitForRequest((r) => r.url().includes(`/v1/${instance}/books?`));
      await page.goto(dataUrl);
      await expect(cell(page, 1, "author_id")).toHaveText("Ursula K. Le Guin#1");
      await expect(cell(page, 2, "author_id")).toHaveText("Octavia Butler#2");
      await expect(cell(page, 1, "price")).toHaveText("17.50");
      expect((await pages).url()).toContain("_expand=author_id");
      expect(reads).toEqual([]);
      await shot(page, "100-grid-references");
    });

    await test.step("Copy cURL gives a command that runs as pasted", async () => {
      await openFilters(page);
      await page.getByRole("button", { name: "Copy cURL to clipboard" }).click();
      const text = await page.evaluate(() => navigator.clipboard.readText());
      expect(text).toMatch(/^TABULA_KEY='sk_[^']+'\ncurl '/);
      const out = execFileSync("bash", ["-e"], { input: text, encoding: "utf8" });
      expect(JSON.parse(out)).toHaveLength(25);
    });

    await test.step("a header click sorts (aria-sort), a second click reverses", async () => {
      const header = grid(page).getByRole("columnheader", { name: /^title/ });
      await header.getByRole("button").click();
      await expect(header).toHaveAttribute("aria-sort", "ascending");
      await header.getByRole("button").click();
      await expect(header).toHaveAttribute("aria-sort", "descending");
      await expect(grid(page).locator("tbody tr").first().locator('td[data-column="title"]')).toHaveText("Book 60");
      expect(page.url()).toContain("_sort%3D-title");
    });

    await test.step("a `≠` filter is in the URL and survives a reload", async () => {
      await openFilters(page);
      await page.getByRole("button", { name: "+ Add filter" }).click();
      await page.getByLabel("Filter column").selectOption("status");
      await page.getByLabel("Operator").selectOption("ne");
      await page.getByLabel("Value for status_ne").selectOption("live");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByTestId("query-preview")).toContainText("status_ne=live");
      await expect(page.getByText("Showing 1–15 of 15")).toBeVisible();
      await page.reload();
      await expect(page.getByLabel("Operator")).toHaveValue("ne");
      await expect(page.getByText("Showing 1–15 of 15")).toBeVisible();
      await expect(grid(page).locator("tbody tr").first().locator('td[data-column="title"]')).toHaveText("Book 57");
      await page.getByRole("button", { name: "Clear" }).click();
      await expect(page.getByText("Showing 1–25 of 60")).toBeVisible();
    });

    await test.step("jump to page 3", async () => {
      await page.getByLabel("Go to page").fill("3");
      await page.getByRole("button", { name: "Go", exact: true }).click();
      await expect(page.getByText("Showing 51–60 of 60")).toBeVisible();
      await expect(page.getByRole("button", { name: "Page 3" })).toHaveAttribute("aria-current", "page");
      await page.getByRole("button", { name: "Page 1" }).click();
      await expect(page.getByText("Showing 1–25 of 60")).toBeVisible();
    });

    await test.step("inline edit: a refusal shows at the cell, Escape cancels, Enter saves", async () => {
      await cell(page, 2, "pages").dblclick();
      const input = page.getByLabel("pages of record 2");
      await input.fill("many");
      await input.press("Enter");
      await expect(cell(page, 2, "pages").getByRole("alert")).toHaveText('"pages" must be a whole number');
      await shot(page, "101-grid-inline-error");
      await input.press("Escape");
      await expect(cell(page, 2, "pages")).toHaveText("101");
      await expect(cell(page, 2, "pages")).toBeFocused();
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await expect(cell(page, 2, "title")).toBeFocused();
      await page.keyboard.press("Enter");
      await page.getByLabel("title of record 2").fill("Book 02, revised");
      await page.keyboard.press("Enter");
      await expect(cell(page, 2, "title")).toHaveText("Book 02, revised");
      const stored = await page.request.get(`/v1/${instance}/books/2`, { headers: { "x-api-key": key } });
      expect((await stored.json()).title).toBe("Book 02, revised");
    });

    await test.step("select two rows and delete them after a confirmation", async () => {
      await page.getByLabel("Select record 4").check();
      await page.getByLabel("Select record 5").check();
      await page.getByRole("button", { name: "Delete selected" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete 2 records of books?" });
      await expect(confirm).toContainText("Records #4, #5 are removed for good");
      await shot(page, "102-grid-bulk-delete-confirm");
      await confirm.getByRole("button", { name: "Delete 2 records" }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByText("Showing 1–25 of 58")).toBeVisible();
      await expect(row(page, 4)).toHaveCount(0);
    });

    await test.step("one submit shows every error, focus on the first; the picker keeps typed text", async () => {
      await page.getByRole("button", { name: "Add record" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a record to books" });
      await dialog.getByLabel(/^price/).fill("1.234");
      await dialog.getByLabel(/^pages/).fill("lots");
      await dialog.getByLabel(/^author_id/).fill("zzz");
      await dialog.getByRole("button", { name: "Add record" }).click();
      await expect(dialog.getByText("4 fields need attention")).toBeVisible();
      await expect(dialog.locator(".field-error")).toHaveText([
        '"title" is required',
        '"price" must have at most 2 decimal places',
        '"zzz" is not chosen yet: pick a row from the list, or clear the text',
        '"pages" must be a whole number',
      ]);
      await expect(dialog.getByLabel(/^title/)).toBeFocused();
      await shot(page, "103-form-all-errors");
      await dialog.getByLabel(/^title/).fill("Exhalation");
      await dialog.getByLabel(/^price/).fill("12.50");
      await dialog.getByLabel(/^pages/).fill("350");
      const picker = dialog.getByRole("combobox", { name: /^author_id/ });
      await picker.fill("chi");
      await expect(dialog.getByRole("option", { name: /Ted Chiang/ })).toBeVisible();
      await picker.press("ArrowDown");
      await picker.press("Enter");
      await expect(picker).toHaveValue("Ted Chiang");
      await shot(page, "104-form-reference-picker");
      await dialog.getByRole("button", { name: "Add record" }).click();
      await expect(dialog).toBeHidden();
      const made = await page.request.get(`/v1/${instance}/books?title=Exhalation`, { headers: { "x-api-key": key } });
      expect(await made.json()).toEqual([expect.objectContaining({ author_id: 3, price: 12.5, pages: 350 })]);
    });

    await test.step("CSV export of the current query, all pages", async () => {
      await page.goto(`${dataUrl}&q=${encodeURIComponent("status=draft&_sort=-id&_limit=10&_offset=0")}`);
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Export CSV" }).click();
      const file = await (await download).path();
      const lines = fs.readFileSync(file, "utf8").trimEnd().split("\r\n");
      expect(lines[0]).toBe("id,title,price,author_id,status,pages,created_at,updated_at");
      // 15 drafts, less #5 deleted above.
      expect(lines).toHaveLength(1 + 14);
      expect(lines[1]).toMatch(/^57,Book 57,66\.00,3,draft,156,/);
      await expect(page.getByRole("status").filter({ hasText: "Exported 14 rows." })).toBeVisible();
    });

    await test.step("CSV import, valid rows only, with a per-row report", async () => {
      await page.getByRole("button", { name: "Import CSV" }).click();
      const dialog = page.getByRole("dialog", { name: "Import CSV into books" });
      const csv = 'Title,price,status\r\n"Imported, one",5.00,live\r\n,7.00,live\r\nImported two,8.5,gone\r\n"Imported ""three""",9,draft\r\n';
      await dialog.getByLabel(/CSV file/).setInputFiles({ name: "books.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await expect(dialog.getByText("4 rows read.")).toBeVisible();
      await dialog.getByLabel("Source for title").selectOption("Title");
      await dialog.getByLabel("All or nothing").check();
      await dialog.getByRole("button", { name: "Import" }).click();
      await expect(dialog.getByRole("status")).toHaveText("0 rows imported; 2 problems:");
      await dialog.getByLabel("Valid rows only").check();
      await dialog.getByRole("button", { name: "Import" }).click();
      await expect(dialog.getByRole("status")).toHaveText("2 rows imported; 2 problems:");
      await expect(dialog.getByRole("listitem")).toHaveText([/^Line 3 · title: /, /^Line 4 · status: /]);
      await shot(page, "105-csv-import-report");
      await dialog.getByRole("button", { name: "Close" }).click();
      const imported = await page.request.get(`/v1/${instance}/books?title_like=Imported&_sort=id`, { headers: { "x-api-key": key } });
      expect((await imported.json()).map((b: { title: string }) => b.title)).toEqual(["Imported, one", 'Imported "three"']);
    });

    await test.step("axe: the data page", async () => {
      await expectAxeClean(page, "data");
    });

    await test.step("required on a column with empty rows: the error on the checkbox and a fill value", async () => {
      await page.goto(`/databases/${instance}/schema?table=books`);
      await page.getByRole("button", { name: "Edit column pages" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit column books.pages" });
      const nullable = dialog.getByRole("checkbox", { name: "Nullable" });
      await nullable.uncheck();
      await dialog.getByRole("button", { name: "Save column" }).click();
      await expect(nullable).toHaveAttribute("aria-invalid", "true");
      await expect(nullable).toHaveAccessibleDescription(/^1[0-9] rows have no value in "pages"/);
      await dialog.getByLabel(/^Fill the 1[0-9] empty rows with/).fill("0");
      await expect(dialog.getByRole("button", { name: "Fill and save" })).toBeEnabled();
      await shot(page, "106-required-with-fill");
      await dialog.getByRole("button", { name: "Fill and save" }).click();
      await expect(dialog).toBeHidden();
      const empty = await page.request.get(`/v1/${instance}/books?pages_null=true`, { headers: { "x-api-key": key } });
      expect(await empty.json()).toEqual([]);
      const zero = await page.request.get(`/v1/${instance}/books?pages=0`, { headers: { "x-api-key": key } });
      expect((await zero.json()).length).toBeGreaterThan(9);
      await expectAxeClean(page, "schema");
    });

    await test.step("a saved join reopens in its editor: renamed and changed; delete asks first", async () => {
      const made = await page.request.post(`/api/v1/databases/${instance}/joins`, {
        data: { name: "shelf", sql: "SELECT b.title AS title FROM books AS b INNER JOIN authors AS a ON b.author_id = a.id" },
      });
      expect(made.status(), await made.text()).toBe(201);
      await page.goto(`/databases/${instance}/joins`);
      await page.getByRole("button", { name: "Edit join shelf" }).click();
      const editor = page.getByRole("region", { name: "Edit join shelf" });
      await expect(editor.getByRole("tab", { name: "SQL" })).toHaveAttribute("aria-selected", "true");
      await expect(editor.getByRole("table", { name: "Join preview" })).toBeVisible({ timeout: 20_000 });
      // Back on the canvas: the key pair is there, output columns can be ticked.
      await editor.getByRole("tab", { name: "Visual editor" }).click();
      await expect(editor.getByRole("list", { name: "Key pairs made" })).toContainText("books.author_id = authors.id");
      await editor.getByLabel("Output authors.name").check();
      await editor.getByLabel("Output name for authors.name").fill("author");
      await expect(editor.getByRole("table", { name: "Join preview" }).locator("th")).toHaveText(["title", "author"]);
      await editor.getByLabel("Join name").fill("shelf_by_author");
      await shot(page, "107-join-edit");
      await editor.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("listitem", { name: "Join shelf_by_author" })).toContainText("title, author");
      await expect(page.getByRole("listitem", { name: "Join shelf", exact: true })).toHaveCount(0);
      const rows = await page.request.get(`/v1/${instance}/shelf_by_author?_limit=1`, { headers: { "x-api-key": key } });
      expect(Object.keys((await rows.json())[0])).toEqual(["title", "author"]);

      await expectAxeClean(page, "joins");

      await page.getByRole("button", { name: "Delete join shelf_by_author" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete join shelf_by_author?" });
      await expect(confirm).toBeVisible();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByRole("listitem", { name: "Join shelf_by_author" })).toBeVisible();
      await page.getByRole("button", { name: "Delete join shelf_by_author" }).click();
      await confirm.getByRole("button", { name: "Delete join" }).click();
      await expect(page.getByRole("listitem", { name: "Join shelf_by_author" })).toHaveCount(0);
    });

    await test.step("the visual editor proposes key pairs from references and sets them without a mouse", async () => {
      const fresh = page.getByRole("region", { name: "New join" });
      for (const table of ["books", "authors"]) {
        await fresh.getByLabel("Table to add").selectOption(table);
        await fresh.getByRole("button", { name: "Add table" }).click();
      }
      await fresh.getByRole("button", { name: "Use books.author_id = authors.id" }).click();
      await expect(fresh.getByRole("list", { name: "Key pairs made" }).getByRole("listitem")).toHaveCount(1);
      await fresh.getByLabel("Key pair: first column").selectOption("books.created_at");
      await fresh.getByLabel("Key pair: second column").selectOption("authors.created_at");
      await fresh.getByRole("button", { name: "Add key pair" }).click();
      await expect(fresh.getByRole("list", { name: "Key pairs made" }).getByRole("listitem")).toHaveCount(2);
      await fresh.getByRole("tab", { name: "SQL" }).click();
      await expect(fresh.getByRole("table", { name: "Join preview" })).toBeVisible({ timeout: 20_000 });
      await shot(page, "108-join-sql-starter");
    });
  });
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("references, header sort and the picker on a phone", async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, OWNER);
    const { instance } = await makeDatabase(page, "Grid phone");
    await page.goto(`/databases/${instance}/data?table=books`);
    await expect(cell(page, 2, "author_id")).toHaveText("Octavia Butler#2");
    const header = grid(page).getByRole("columnheader", { name: /^price/ });
    await header.getByRole("button").click();
    await expect(header).toHaveAttribute("aria-sort", "ascending");
    await expect(grid(page).locator("tbody tr").first().locator('td[data-column="price"]')).toHaveText("11.00");
    await page.screenshot({ path: "test-results/screens/110-grid-390.png", fullPage: true });
    await expectAxeClean(page, "data at 390 px");

    await cell(page, 1, "title").dblclick();
    await page.getByLabel("title of record 1").press("Escape");
    await rowAction(grid(page), 1, "Edit");
    const dialog = page.getByRole("dialog", { name: "Edit books #1" });
    const picker = dialog.getByRole("combobox", { name: /^author_id/ });
    await expect(picker).toHaveValue("Ursula K. Le Guin");
    await picker.fill("ted");
    await dialog.getByRole("option", { name: /Ted Chiang/ }).click();
    await page.screenshot({ path: "test-results/screens/111-form-390.png", fullPage: true });
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog).toBeHidden();
    await expect(cell(page, 1, "author_id")).toHaveText("Ted Chiang#3");
  });
});
