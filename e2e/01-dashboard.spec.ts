import { expect, type Locator, type Page, test } from "@playwright/test";
import { openFilters, rowAction } from "./helpers";

// The dashboard end to end in Chromium, on a fresh install (this file runs before the README walkthrough,
// which adds a second account through the CLI). One story, step by step; every page is saved as a PNG.

const EMAIL = "owner@example.com";
const PASSWORD = "correct horse battery";

test.use({ viewport: { width: 1280, height: 800 } });

const VIEWPORT = { width: 1280, height: 800 };

/**
 * Saves the whole page. The viewport grows to the page's height for the shot, so the sticky sidebar and
 * action bars are drawn where a reader expects them rather than wherever the page was scrolled.
 */
const shot = async (page: Page, name: string) => {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > VIEWPORT.height) await page.setViewportSize({ width: VIEWPORT.width, height });
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  if (height > VIEWPORT.height) await page.setViewportSize(VIEWPORT);
};

type ColumnSpec = { name: string; type: string; nullable?: boolean; unique?: boolean; options?: string[]; references?: string; default?: string };

/** Fills one row of the column grid (quick create or the schema editor's "Add columns"). */
const fillColumn = async (scope: Locator, c: ColumnSpec) => {
  await scope.getByLabel("Name", { exact: true }).fill(c.name);
  await scope.getByLabel("Type", { exact: true }).selectOption(c.type);
  if (c.nullable === false) await scope.getByLabel("Required").check();
  if (c.unique) await scope.getByLabel("Unique").check();
  if (c.options) await scope.getByLabel("Options").fill(c.options.join(", "));
  if (c.references) await scope.getByLabel("References table").selectOption(c.references);
  if (c.default) await scope.getByLabel("Default").selectOption(c.default);
};

const fillTable = async (page: Page, index: number, name: string, columns: ColumnSpec[]) => {
  const table = page.getByRole("region", { name: `Table ${index}` });
  await table.getByLabel(`Table ${index} name`).fill(name);
  for (const [i, column] of columns.entries()) {
    if (i > 0) await table.getByRole("button", { name: "Add another column" }).click();
    await fillColumn(table.getByRole("listitem", { name: `Column ${i + 1}`, exact: true }), column);
  }
};

const keysOf = async (page: Page) => {
  const res = await page.request.get("/api/v1/keys");
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: number; name: string; key: string }[];
};

test("the dashboard covers the backbone, from first run to a regenerated key", async ({ page, request }) => {
  test.setTimeout(240_000);
  let instance = "";

  await test.step("first visit on a fresh install offers to create your account", async () => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await shot(page, "01-first-run-setup");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/databases$/);
    await expect(page.getByText("No databases yet").first()).toBeVisible();
    await expect(page.getByText("Operator")).toBeVisible();
    await shot(page, "02-databases-empty");
  });

  await test.step("the management API accepts the dashboard session", async () => {
    const me = await page.request.get("/api/v1/account");
    expect(await me.json()).toMatchObject({ email: EMAIL, is_operator: true });
    expect((await request.get("/api/v1/account")).status()).toBe(401);
  });

  await test.step("quick create: two tables, a dropdown, a password and a reference, in one form", async () => {
    await page.getByRole("link", { name: "New database" }).first().click();
    await expect(page.getByRole("heading", { name: "New database" })).toBeVisible();
    await page.getByLabel("Database name").fill("Blog");
    await page.getByRole("button", { name: "Add a table (quick create)" }).click();
    await fillTable(page, 1, "authors", [
      { name: "name", type: "varchar", nullable: false },
      { name: "email", type: "varchar", nullable: false, unique: true },
      { name: "password", type: "password" },
      { name: "role", type: "dropdown", options: ["reader", "writer", "admin"], default: "reader" },
    ]);
    await page.getByRole("button", { name: "Add another table" }).click();
    await fillTable(page, 2, "posts", [
      { name: "title", type: "varchar", nullable: false },
      { name: "author_id", type: "reference", references: "authors" },
      { name: "status", type: "dropdown", options: ["draft", "published"] },
    ]);
    await shot(page, "03-quick-create-form");
    await page.getByRole("button", { name: "Create database with 2 tables" }).click();
    await expect(page).toHaveURL(/\/databases\/blog_[a-z0-9]{6}\/schema$/);
    instance = /\/databases\/([^/]+)\/schema/.exec(page.url())![1];
    const grid = page.getByRole("table", { name: "Columns of authors" });
    for (const name of ["name", "email", "password", "role"]) await expect(grid.locator(`tr[data-column="${name}"]`)).toBeVisible();
    await expect(grid.locator('tr[data-column="role"]')).toContainText("ENUM('reader','writer','admin')");
    await expect(page.getByRole("link", { name: "posts" })).toBeVisible();
    await expect(grid.getByRole("button", { name: "Edit column role" })).toBeInViewport();
    await expect(grid.getByRole("button", { name: "Delete column role" })).toBeInViewport({ ratio: 1 });
    await shot(page, "04-schema-editor");
  });

  await test.step("add a column in the schema editor", async () => {
    await page.getByRole("button", { name: "Add columns" }).click();
    const dialog = page.getByRole("dialog", { name: "Add columns to authors" });
    await fillColumn(dialog, { name: "age", type: "int" });
    await shot(page, "05-add-column-dialog");
    await dialog.getByRole("button", { name: "Add column" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('tr[data-column="age"]')).toContainText("INT");
    await page.getByRole("link", { name: "posts" }).click();
    await expect(page.locator('tr[data-column="author_id"]')).toContainText("authors.id");
    await shot(page, "06-schema-posts");
  });

  await test.step("edit a column's dropdown options and rename a table", async () => {
    await page.getByRole("button", { name: "Edit column status" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit column posts.status" });
    await dialog.getByPlaceholder("Add options").fill("archived");
    await dialog.getByPlaceholder("Add options").press("Enter");
    await dialog.getByLabel("Default").selectOption("draft");
    await dialog.getByRole("button", { name: "Save column" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('tr[data-column="status"]')).toContainText("ENUM('draft','published','archived')");
    await page.getByRole("button", { name: "Rename" }).click();
    const rename = page.getByRole("dialog", { name: "Rename table posts" });
    await rename.getByLabel("New name").fill("articles");
    await rename.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByRole("heading", { name: "articles" })).toBeVisible();
    await expect(page.getByRole("link", { name: "posts" })).toHaveCount(0);
    await page.getByRole("link", { name: "authors" }).click();
  });

  await test.step("the API Docs tab shows the new column without a server reload", async () => {
    await page.getByRole("link", { name: "API Docs" }).click();
    const post = page.locator("#operations-authors-createAuthors");
    await expect(post).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("curl-snippet")).toContainText("-X POST");
    await expect(page.getByTestId("curl-snippet")).toContainText('"age"');
    await expect(page.getByTestId("curl-snippet")).toContainText("Authorization: Bearer sk_");
    await post.locator(".opblock-summary").click();
    await expect(post).toContainText('"age"');
    await shot(page, "07-api-docs");
  });

  await test.step("try it out: POST from Swagger UI with the user's key answers 201", async () => {
    const post = page.locator("#operations-authors-createAuthors");
    await post.getByRole("button", { name: "Try it out" }).click();
    await post
      .locator("textarea.body-param__text")
      .fill(JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine", role: "writer", age: 36 }));
    await post.getByRole("button", { name: "Execute" }).click();
    await expect(post.locator(".live-responses-table tbody .response-col_status").first()).toHaveText(/201/, { timeout: 15_000 });
    await expect(post.locator(".live-responses-table")).toContainText("Ada Lovelace");
    await post.locator(".live-responses-table").scrollIntoViewIfNeeded();
    await shot(page, "08-api-docs-try-it-201");
  });

  await test.step("the row is in the data browser, password masked", async () => {
    await page.getByRole("link", { name: "Data", exact: true }).click();
    const grid = page.getByRole("table", { name: "Records of authors" });
    const ada = grid.locator('tr[data-record-id="1"]');
    await expect(ada).toContainText("Ada Lovelace");
    await expect(ada.locator('td[data-column="password"]')).toHaveText("••••••••");
    for (const [name, email, role, age] of [
      ["Grace Hopper", "grace@example.com", "writer", "45"],
      ["Linus", "linus@example.com", "reader", "28"],
    ]) {
      await page.getByRole("button", { name: "Add record" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a record to authors" });
      await dialog.locator("#field-name").fill(name);
      await dialog.locator("#field-email").fill(email);
      await dialog.locator("#field-password").fill("a long password");
      await dialog.locator("#field-role").selectOption(role);
      await dialog.locator("#field-age").fill(age);
      await dialog.getByRole("button", { name: "Add record" }).click();
      await expect(dialog).toBeHidden();
    }
    await expect(grid.locator("tbody tr")).toHaveCount(3);
    await shot(page, "09-data-browser");
  });

  await test.step("filter and sort with the data API's own grammar", async () => {
    await openFilters(page);
    await page.getByRole("button", { name: "+ Add filter" }).click();
    await page.getByLabel("Filter column").selectOption("role");
    await page.getByLabel("Value for role").selectOption("writer");
    await page.getByRole("button", { name: "+ Add sort" }).click();
    await page.getByLabel("Sort column").selectOption("age");
    await page.getByLabel("Sort direction").selectOption("desc");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("query-preview")).toHaveText(`GET /v1/${instance}/authors?role=writer&_sort=-age&_limit=25&_offset=0`);
    const rows = page.getByRole("table", { name: "Records of authors" }).locator("tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("Grace Hopper");
    await expect(rows.nth(1)).toContainText("Ada Lovelace");
    await shot(page, "10-data-filtered-sorted");
  });

  await test.step("a wrong type shows the API's error inline on that field", async () => {
    await page.getByRole("button", { name: "Add record" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a record to authors" });
    await dialog.locator("#field-name").fill("Typo");
    await dialog.locator("#field-email").fill("typo@example.com");
    await dialog.locator("#field-age").fill("forty");
    await dialog.getByRole("button", { name: "Add record" }).click();
    await expect(dialog.locator("#field-age-error")).toContainText("age");
    await expect(dialog.locator("#field-age")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.locator("#field-name-error")).toHaveCount(0);
    await shot(page, "11-data-inline-error");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });

  await test.step("edit a row (PATCH) and delete one", async () => {
    await page.getByRole("button", { name: "Clear" }).click();
    const grid = page.getByRole("table", { name: "Records of authors" });
    await expect(grid.locator("tbody tr")).toHaveCount(3);
    await expect(grid.getByRole("button", { name: "Actions for record 3" })).toBeInViewport({ ratio: 1 });
    await rowAction(grid, 3, "Edit");
    const dialog = page.getByRole("dialog", { name: "Edit authors #3" });
    await dialog.locator("#field-age").fill("29");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog).toBeHidden();
    await expect(grid.locator('tr[data-record-id="3"] td[data-column="age"]')).toHaveText("29");
    await rowAction(grid, 3, "Delete");
    const confirm = page.getByRole("dialog", { name: "Delete authors #3?" });
    await confirm.getByRole("button", { name: "Delete record" }).click();
    await expect(grid.locator("tbody tr")).toHaveCount(2);
  });

  await test.step("regenerate the key: the old one is refused by the API at once", async () => {
    const before = await keysOf(page);
    const old = before.find((k) => k.name === "Default key")!;
    expect((await request.get(`/v1/${instance}/authors`, { headers: { "x-api-key": old.key } })).status()).toBe(200);
    await page.getByRole("link", { name: "API keys" }).click();
    await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
    const row = page.locator(`tr[data-key-id="${old.id}"]`);
    // The dashboard calls the data API with a key of its own, never the account's keys for apps.
    const own = before.find((k) => k.name === "Dashboard")!;
    await expect(page.locator(`tr[data-key-id="${own.id}"]`)).toContainText("Used by this dashboard");
    await expect(row).not.toContainText("Used by this dashboard");
    await shot(page, "12-api-keys");
    await row.getByRole("button", { name: "Regenerate" }).click();
    const confirm = page.getByRole("dialog", { name: "Regenerate “Default key”?" });
    await expect(confirm).toContainText("The old key stops working at once");
    await shot(page, "13-regenerate-confirm");
    await confirm.getByRole("button", { name: "Regenerate key" }).click();
    await expect(confirm).toBeHidden();
    const renewed = (await keysOf(page)).find((k) => k.id === old.id)!;
    expect(renewed.key).not.toBe(old.key);
    await expect(row.getByTestId("key-value")).toHaveText(renewed.key);
    const refused = await request.get(`/v1/${instance}/authors`, { headers: { "x-api-key": old.key } });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "unauthorized" });
    expect((await request.get(`/v1/${instance}/authors`, { headers: { "x-api-key": renewed.key } })).status()).toBe(200);
    await shot(page, "14-api-keys-regenerated");
  });

  await test.step("the dashboard keeps working: its own key was not the one regenerated", async () => {
    await page.getByRole("link", { name: "Blog" }).click();
    await page.getByRole("link", { name: "Data", exact: true }).click();
    await expect(page.getByRole("table", { name: "Records of authors" }).locator("tbody tr")).toHaveCount(2);
  });

  await test.step("create, rename and delete a database (typed confirmation)", async () => {
    await page.getByRole("link", { name: "New database" }).first().click();
    await page.getByLabel("Database name").fill("Scratch");
    await page.getByRole("button", { name: "Create empty database" }).click();
    await expect(page.getByText("This database has no tables yet")).toBeVisible();
    await shot(page, "15-schema-empty-database");
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByLabel("Name", { exact: true }).fill("Scratch pad");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByRole("heading", { name: "Scratch pad" })).toBeVisible();
    await page.getByRole("button", { name: "Delete database…" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete “Scratch pad”?" });
    const scratch = /\/databases\/([^/]+)\//.exec(page.url())![1];
    await expect(confirm.getByRole("button", { name: "Delete database" })).toBeDisabled();
    await confirm.getByLabel(/Type .* to confirm/).fill(scratch);
    await shot(page, "16-delete-database-confirm");
    await confirm.getByRole("button", { name: "Delete database" }).click();
    await expect(page).toHaveURL(/\/databases$/);
    await expect(page.getByRole("main").getByRole("link", { name: /Blog/ })).toBeVisible();
    await expect(page.getByText("Scratch pad")).toHaveCount(0);
    await shot(page, "17-databases");
  });

  await test.step("the operator sets sign-up; sign out and back in", async () => {
    await page.getByRole("link", { name: "Accounts" }).click();
    await expect(page.getByRole("heading", { name: "Accounts" })).toBeVisible();
    await shot(page, "18-accounts");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Accounts on this install are created by its operator.")).toBeVisible();
    await shot(page, "19-login");
    expect((await page.request.get("/api/v1/account")).status()).toBe(401);
    await page.goto("/signup");
    await expect(page.getByText("Sign-up is closed on this install")).toBeVisible();
    await shot(page, "20-signup-closed");
    await page.goto("/login");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("That email and password do not match an account.")).toBeVisible();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/databases$/);
  });
});
