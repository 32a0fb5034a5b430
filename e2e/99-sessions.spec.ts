import { type Browser, expect, type Page, test } from "@playwright/test";
import { shot, signIn, VIEWPORT } from "./helpers";

// Sessions in the browser: "Sign out everywhere" on Your account ends every session of the account (this
// one and another browser's); a password change keeps the browser that made it and ends the others; after 10
// failed sign-ins the form says so (from an address of its own, X-Forwarded-For with TRUST_PROXY=1).

const OPERATOR = { email: "owner@example.com", password: "correct horse battery" };

/** The operator exists after 01-dashboard.spec.ts; run alone on a fresh install, this makes it. */
const ensureOperator = async (page: Page) => {
  const status = await (await page.request.get("/api/session/status")).json();
  if (status.first_run) expect((await page.request.post("/api/session/signup", { data: OPERATOR })).status()).toBeLessThan(300);
};

const browserSignedIn = async (browser: Browser, who: { email: string; password: string }) => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await signIn(page, who);
  return { context, page };
};

/** Whether the page's session still reaches the dashboard's data (else the app sends it to /login). */
const stillSignedIn = async (page: Page) => (await page.request.get("/api/v1/account")).status() === 200;

test("Sign out everywhere ends this browser's session and another's; a password change keeps only the browser that made it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(VIEWPORT);
  await ensureOperator(page);
  await signIn(page, OPERATOR);
  const member = { email: `sessions-${Date.now()}@example.com`, password: "first password 1" };
  expect((await page.request.post("/api/v1/accounts", { data: member })).status()).toBe(201);

  const laptop = await browserSignedIn(browser, member);
  const phone = await browserSignedIn(browser, member);
  await laptop.page.getByRole("link", { name: "Your account" }).click();
  const sessions = laptop.page.getByRole("region", { name: "Sessions" });
  await expect(sessions.getByRole("button", { name: "Sign out everywhere" })).toBeVisible();
  await shot(laptop.page, "12-account-sign-out-everywhere");
  await sessions.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = laptop.page.getByRole("dialog", { name: "Sign out everywhere?" });
  await expect(dialog).toBeVisible();
  await shot(laptop.page, "12-account-sign-out-everywhere-confirm");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(laptop.page).toHaveURL(/\/login/);
  expect(await stillSignedIn(laptop.page)).toBe(false);
  expect(await stillSignedIn(phone.page)).toBe(false);
  await phone.page.goto("/databases");
  await expect(phone.page).toHaveURL(/\/login/, { timeout: 20_000 });
  expect(await stillSignedIn(page)).toBe(true);

  const here = await browserSignedIn(browser, member);
  const there = await browserSignedIn(browser, member);
  await here.page.getByRole("link", { name: "Your account" }).click();
  const form = here.page.getByRole("form", { name: "Change your password" });
  await form.getByLabel("Current password").fill(member.password);
  await form.getByLabel("New password", { exact: true }).fill("second password 2");
  await form.getByLabel("Confirm new password").fill("second password 2");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("Password changed.")).toBeVisible();
  expect(await stillSignedIn(here.page)).toBe(true);
  expect(await stillSignedIn(there.page)).toBe(false);
  await here.page.reload();
  await expect(here.page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
  for (const b of [laptop, phone, here, there]) await b.context.close();
});

test("after 10 failed sign-ins the form says the limit is reached, the right password included", async ({ page }) => {
  await page.setViewportSize(VIEWPORT);
  const target = { email: `limited-${Date.now()}@example.com`, password: "the right password" };
  await ensureOperator(page);
  await signIn(page, OPERATOR);
  expect((await page.request.post("/api/v1/accounts", { data: target })).status()).toBe(201);
  await page.request.post("/api/auth/signout");
  await page.context().clearCookies();
  // An address of its own (the e2e server trusts one proxy hop): earlier specs' failed sign-ins from 127.0.0.1
  // count against that address, so only this account's failures may count here.
  await page.context().setExtraHTTPHeaders({ "x-forwarded-for": "198.51.100.21" });
  await page.goto("/login");
  for (let i = 0; i < 10; i++) {
    await page.getByLabel("Email").fill(target.email);
    await page.getByLabel("Password").fill(`wrong ${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("That email and password do not match an account.")).toBeVisible();
  }
  await page.getByLabel("Password").fill(target.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Too many failed sign-ins for this email or from this network. Try again in 15 minutes.")).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await shot(page, "12-login-limited");
});
