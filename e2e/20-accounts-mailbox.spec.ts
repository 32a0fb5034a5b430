import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAxeClean, shot, signInOrSetUp, THEMED_VIEWPORTS, VIEWPORT } from "./helpers";

// End-user accounts in a real browser: the docs/auth.md example, run as written against a database of this
// server (login, a data request, a refresh that reopens the change feed, an insert seen on the feed, the spent
// refresh token refused); then a password reset mail read in Settings → Mailbox (no SMTP_URL here).

test.use({ viewport: VIEWPORT });

/** The browser example of docs/auth.md, exactly as the docs show it. */
const browserExample = () => {
  const doc = fs.readFileSync("docs/auth.md", "utf8");
  const block = /## In the browser[\s\S]*?```js\n([\s\S]*?)```/.exec(doc);
  expect(block, "docs/auth.md has the browser example").not.toBeNull();
  return block![1];
};

test("the docs' browser example signs in, refreshes and follows the feed; the mailbox shows the reset mail", async ({ page }) => {
  test.setTimeout(120_000);
  await signInOrSetUp(page);
  const email = `ada-${randomBytes(3).toString("hex")}@example.com`;
  const password = "correct horse battery";

  const created = await page.request.post("/api/v1/databases", {
    data: {
      name: `Accounts ${randomBytes(2).toString("hex")}`,
      tables: [
        { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
        { name: "notes", columns: [{ name: "title", type: "varchar", nullable: false }] },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const db = (await created.json()).instance as string;
  const auth = await page.request.put(`/api/v1/databases/${db}/auth`, { data: { enabled: true, signup: true, redirect_urls: ["http://localhost/reset"] } });
  expect(auth.status(), await auth.text()).toBe(200);
  const policies = await page.request.put(`/api/v1/databases/${db}/tables/notes/policies`, { data: { select: "true", insert: "true" } });
  expect(policies.status(), await policies.text()).toBe(200);
  const signup = await page.request.post(`/v1/${db}/auth/signup`, { data: { email, password } });
  expect(signup.status(), await signup.text()).toBe(201);

  await test.step("the browser example of docs/auth.md works as written", async () => {
    const code = `${browserExample().replace("my_db_instance", db)}\nreturn { login, refresh, api, logout, current: () => session };`;
    const inserted = page.waitForEvent("console", { predicate: (m) => m.text().startsWith("insert"), timeout: 20_000 });
    const result = await page.evaluate(
      async ({ code, email, password }) => {
        const example = new Function(code)();
        (window as unknown as { example: unknown }).example = example;
        await example.login(email, password);
        const first = example.current().refresh_token;
        (window as unknown as { first: string }).first = first;
        await example.refresh();
        const second = example.current().refresh_token;
        await new Promise((r) => setTimeout(r, 1_000));
        const write = await example.api("/notes", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "from the browser" }) });
        return { changed: first !== second, writeStatus: write.status, stored: localStorage.getItem("refresh_token") === second };
      },
      { code, email, password },
    );
    expect(result).toEqual({ changed: true, writeStatus: 201, stored: true });
    expect((await inserted).text()).toMatch(/^insert/);
    // The spent refresh token again: a reuse, which ends the session.
    const reuse = await page.evaluate(async (db) => {
      const res = await fetch(`${location.origin}/v1/${db}/auth/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ refresh_token: (window as unknown as { first: string }).first }),
      });
      return { status: res.status, error: (await res.json()).error };
    }, db);
    expect(reuse).toEqual({ status: 401, error: "refresh_token_reused" });
  });

  await test.step("Settings → Mailbox shows the reset mail, kept without SMTP_URL", async () => {
    const forgot = await page.request.post(`/v1/${db}/auth/password/forgot`, { data: { email } });
    expect(forgot.status()).toBe(202);
    await page.goto("/settings");
    await page.getByRole("link", { name: /Mailbox/ }).first().click();
    await expect(page).toHaveURL(/\/settings\/mailbox$/);
    const table = page.getByRole("table", { name: "Mailbox" });
    const row = table.getByRole("row").filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row.getByText("kept")).toBeVisible();
    await row.getByRole("button", { name: /Reset your/ }).click();
    await expect(table.getByText(/token=/)).toBeVisible();
    await expectAxeClean(page, "mailbox");
    await shot(page, "mailbox");
  });

  await test.step("the mailbox at phone width and in dark mode: readable, no serious axe violation", async () => {
    for (const { width, height, theme } of THEMED_VIEWPORTS.slice(1)) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: theme });
      await page.reload();
      await expect(page.getByRole("table", { name: "Mailbox" }).getByRole("row").filter({ hasText: email })).toHaveCount(1);
      await expectAxeClean(page, `mailbox ${width} ${theme}`);
      await shot(page, `mailbox-${width}-${theme}`);
    }
  });
});
