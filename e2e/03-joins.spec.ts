import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";

// A join built in the visual editor end to end: its own account (made with the CLI, like the README), a
// database made through the management API, the canvas in Chromium, the API Docs tab, and a call to the path.

const EMAIL = `joins-${randomBytes(4).toString("hex")}@example.com`;
const PASSWORD = "correct horse battery";

test.use({ viewport: { width: 1280, height: 900 } });

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });

/** Drags from one column handle to another, in small steps so React Flow sees a connection gesture. */
const dragHandle = async (page: Page, from: string, to: string) => {
  const a = await page.locator(`[data-handleid="${from}"]`).boundingBox();
  const b = await page.locator(`[data-handleid="${to}"]`).boundingBox();
  if (!a || !b) throw new Error(`handle ${a ? to : from} is not on the canvas`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
};

test("a join built in the visual editor shows in the API Docs and answers its GET", async ({ page, request }) => {
  test.setTimeout(180_000);
  const offsite: string[] = [];
  page.on("request", (r) => {
    if (!/^(https?:\/\/localhost[:/]|data:|blob:)/.test(r.url())) offsite.push(r.url());
  });

  const key = execFileSync("node", ["bin/tabula.mjs", "create-account", "--email", EMAIL, "--password", PASSWORD], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  expect(key).toMatch(/^sk_/);
  const auth = { authorization: `Bearer ${key}` };

  let instance = "";
  await test.step("a database with authors and books, made through the management API", async () => {
    const made = await request.post("/api/v1/databases", {
      headers: auth,
      data: {
        name: "Library",
        tables: [
          { name: "authors", columns: [{ name: "name", type: "varchar", nullable: false }] },
          { name: "books", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "author_id", type: "reference", references: "authors" }] },
        ],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    instance = (await made.json()).instance;
    expect((await request.post(`/v1/${instance}/authors`, { headers: auth, data: [{ name: "Ursula K. Le Guin" }, { name: "Octavia Butler" }] })).status()).toBe(201);
    const books = [{ title: "Kindred", author_id: 2 }, { title: "The Dispossessed", author_id: 1 }, { title: "Unattributed", author_id: null }];
    expect((await request.post(`/v1/${instance}/books`, { headers: auth, data: books })).status()).toBe(201);
  });

  await test.step("sign in with the CLI-made account", async () => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/databases$/);
  });

  await test.step("the Joins tab: two tables on the canvas, a key pair dragged from column to column", async () => {
    await page.goto(`/databases/${instance}/schema`);
    await page.getByRole("link", { name: "Joins" }).click();
    await expect(page.getByText("No joins yet.")).toBeVisible();
    for (const table of ["books", "authors"]) {
      await page.getByLabel("Table to add").selectOption(table);
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("group", { name: `Table ${table}` })).toBeVisible();
    }
    await dragHandle(page, "books.author_id:r", "authors.id:l");
    await expect(page.getByRole("list", { name: "Key pairs made" }).getByRole("listitem")).toHaveText(["books.author_id = authors.id×"]);
    await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  });

  await test.step("tick output columns, rename one, and see the live preview", async () => {
    await page.getByLabel("Output books.title").check();
    await page.getByLabel("Output authors.name").check();
    await page.getByLabel("Output name for authors.name").fill("author");
    const preview = page.getByRole("table", { name: "Join preview" });
    await expect(preview).toContainText("Kindred");
    await expect(preview).toContainText("Octavia Butler");
    await expect(preview).not.toContainText("Unattributed");
    await expect(preview.locator("th")).toHaveText(["title", "author"]);
    await shot(page, "30-join-visual-editor");
  });

  await test.step("a left join keeps the book without an author; inner again drops it", async () => {
    const preview = page.getByRole("table", { name: "Join preview" });
    await page.getByLabel("Join type for authors").selectOption("left");
    await expect(preview).toContainText("Unattributed");
    await shot(page, "30b-join-visual-editor-left");
    await page.getByLabel("Join type for authors").selectOption("inner");
    await expect(preview).not.toContainText("Unattributed");
  });

  await test.step("save it: it is listed with its API path", async () => {
    await page.getByLabel("Join name").fill("books_with_authors");
    await page.getByRole("button", { name: "Save join" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toContainText(`GET /v1/${instance}/books_with_authors`);
    await expect(page.getByRole("listitem", { name: "Join books_with_authors" })).toBeVisible();
  });

  await test.step("SQL mode loads Monaco from this server and points at a refused function", async () => {
    await page.getByRole("tab", { name: "SQL" }).click();
    const editor = page.getByTestId("sql-editor").locator(".monaco-editor");
    await expect(editor).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("table", { name: "Join preview" })).toBeVisible({ timeout: 10_000 });
    await editor.click();
    // Typing would race Monaco's suggestions and bracket closing; the model is set the way a paste would.
    await page.evaluate((text) => (window as unknown as { monaco: any }).monaco.editor.getModels()[0].setValue(text), "SELECT SLEEP(5) AS s, b.title\nFROM books b JOIN authors a ON b.author_id = a.id");
    await expect(page.getByRole("alert").filter({ hasText: "SLEEP" })).toHaveText(
      "Function SLEEP() is not allowed; list table columns only (at line 1, column 8).",
    );
    await shot(page, "31-join-sql-mode-refusal");
  });

  await test.step("the API Docs tab lists the join's GET path, and Try it out answers 200 with the joined rows", async () => {
    await page.getByRole("link", { name: "API Docs" }).click();
    const op = page.locator("#operations-books_with_authors-listBooksWithAuthorsJoin");
    await expect(op).toBeVisible({ timeout: 20_000 });
    await op.locator(".opblock-summary").click();
    await op.getByRole("button", { name: "Try it out" }).click();
    await op.getByRole("button", { name: "Execute" }).click();
    await expect(op.locator(".live-responses-table tbody .response-col_status").first()).toHaveText(/200/, { timeout: 15_000 });
    await expect(op.locator(".live-responses-table")).toContainText("Octavia Butler");
    // The docs page is very tall; the shot shows the join's operation with its live response.
    await op.locator(".live-responses-table").scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/screens/32-join-api-docs.png" });
  });

  await test.step("the join answers on its own path with the query grammar, read-only", async () => {
    const sorted = await request.get(`/v1/${instance}/books_with_authors?_sort=-author`, { headers: auth });
    expect(sorted.status()).toBe(200);
    expect(await sorted.json()).toEqual([
      { title: "The Dispossessed", author: "Ursula K. Le Guin" },
      { title: "Kindred", author: "Octavia Butler" },
    ]);
    const none = await request.get(`/v1/${instance}/books_with_authors?author_ilike=tolkien`, { headers: auth });
    expect({ status: none.status(), body: await none.json() }).toEqual({ status: 200, body: [] });
    const post = await request.post(`/v1/${instance}/books_with_authors`, { headers: auth, data: {} });
    expect(post.status()).toBe(405);
    expect(post.headers().allow).toBe("GET");
  });

  expect(offsite, "no request leaves this server").toEqual([]);
});
