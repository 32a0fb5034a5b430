import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, shot, signInOrSetUp, THEMED_VIEWPORTS, VIEWPORT } from "./helpers";

// The Auth tab's sign-in settings and users admin in a real browser: verification turned on and a Google
// provider added (its secret never shown again), a user signed up through the data API, its verification mail
// read in Settings → Mailbox and its link followed, a test mail sent from the same page and one with the database's
// template from the Auth tab, then the user found in
// the users list, verified, and disabled. The mailbox and the Auth tab are checked at 1280 and 390 px, light and
// dark, with axe.

test.use({ viewport: VIEWPORT });

const usersSection = (page: Page) => page.getByRole("region", { name: "Users", exact: true });

test("verification and a Google provider set in the Auth tab; a signed-up user's mail in the mailbox; the user disabled from the users list", async ({ page }) => {
  test.setTimeout(120_000);
  await signInOrSetUp(page);
  const suffix = randomBytes(3).toString("hex");
  const email = `grace-${suffix}@example.com`;
  const secret = `google-secret-${suffix}`;

  const created = await page.request.post("/api/v1/databases", {
    data: { name: `Auth admin ${suffix}`, tables: [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const db = (await created.json()).instance as string;

  await test.step("turn verification on and add a Google provider in the Auth tab", async () => {
    await page.goto(`/databases/${db}/auth`);
    await expect(page.getByRole("heading", { name: "Database auth" })).toBeVisible();
    await page.getByLabel("Enable database auth").check();
    await page.getByLabel("Allow sign-up (POST /auth/signup)").check();
    await page.getByLabel("Email verification").selectOption("required");
    await page.getByLabel("Redirect URLs, one per line").fill("http://localhost/welcome");
    await page.getByLabel("Provider", { exact: true }).selectOption("google");
    await page.getByLabel("Client ID").fill("google-client-id.apps.example");
    await page.getByLabel("Client secret").fill(secret);
    await page.getByRole("button", { name: "Save auth settings" }).click();
    await expect(page.getByText("Saved.", { exact: true })).toBeVisible();
    // Saved, and never shown again: the box is empty, the API answers the mask.
    await expect(page.getByLabel("Client secret")).toHaveValue("");
    await expect(page.getByText("Stored; never shown. Leave empty to keep it.")).toBeVisible();
    const settings = await page.request.get(`/api/v1/databases/${db}/auth`);
    const body = await settings.text();
    expect(body).not.toContain(secret);
    expect(JSON.parse(body)).toEqual(expect.objectContaining({ verification: "required", redirect_urls: ["http://localhost/welcome"], providers: [{ id: "google", client_id: "google-client-id.apps.example", client_secret: "********" }] }));
  });

  await test.step("a user signs up through the data API; its verification mail is read in Settings → Mailbox and its link followed", async () => {
    const signup = await page.request.post(`/v1/${db}/auth/signup`, { data: { email, password: "grace-password-1" } });
    expect(signup.status(), await signup.text()).toBe(201);
    expect(await signup.json()).toEqual({ user: { email }, verification_sent: true });
    await page.goto("/settings/mailbox");
    const table = page.getByRole("table", { name: "Mailbox" });
    const row = table.getByRole("row").filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await row.getByRole("button", { name: /Confirm your email/ }).click();
    const link = table.getByText(/localhost\/welcome\?token=/);
    await expect(link).toBeVisible();
    const token = /token=([\w-]+)/.exec((await link.textContent()) ?? "")![1];
    const verified = await page.request.post(`/v1/${db}/auth/verify`, { data: { token } });
    expect(verified.status(), await verified.text()).toBe(200);
  });

  await test.step("a test mail sent from the Mailbox page is kept there (no SMTP_URL)", async () => {
    const to = `ops-${suffix}@example.com`;
    await page.getByLabel("To", { exact: true }).fill(to);
    await page.getByRole("button", { name: "Send test mail" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Written to the mailbox below" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Mailbox" }).getByRole("row").filter({ hasText: to })).toContainText("Tabula test mail");
  });

  await test.step("a test mail sent from the Auth tab is the database's verification mail, read in the Mailbox page", async () => {
    const to = `admin-${suffix}@example.com`;
    await page.goto(`/databases/${db}/auth`);
    const form = page.getByRole("form", { name: "Send a test mail" });
    await form.getByLabel("To", { exact: true }).fill(to);
    await form.getByRole("button", { name: "Send test mail" }).click();
    await expect(form.getByRole("status").filter({ hasText: "Written to the install's mailbox" })).toBeVisible();
    await page.goto("/settings/mailbox");
    const row = page.getByRole("table", { name: "Mailbox" }).getByRole("row").filter({ hasText: to });
    await expect(row).toContainText(`Confirm your email for Auth admin ${suffix}`);
    await expect(row).toContainText(`Test mail · ${db}`);
  });

  await test.step("the user is in the users list, verified; search finds it; disabling it shows it disabled", async () => {
    await page.goto(`/databases/${db}/auth`);
    const users = usersSection(page);
    await users.getByLabel("Search users by login or email").fill(`grace-${suffix}`);
    await users.getByRole("button", { name: "Search" }).click();
    const row = users.getByRole("row").filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row.getByText("verified", { exact: true })).toBeVisible();
    await row.getByRole("button", { name: "Disable" }).click();
    await expect(users.getByText(`${email}: disabled: its sessions ended.`)).toBeVisible();
    await expect(row.getByText("disabled", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: "Enable" })).toBeVisible();
    const login = await page.request.post(`/v1/${db}/auth/login`, { data: { email, password: "grace-password-1" } });
    expect(login.status()).toBe(401);
  });

  await test.step("the mailbox with the mail open and the Auth tab at 1280 and 390 px, light and dark: no serious axe violation", async () => {
    for (const { width, height, theme } of THEMED_VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: theme });
      await page.goto("/settings/mailbox");
      const mail = page.getByRole("table", { name: "Mailbox" }).getByRole("row").filter({ hasText: email });
      await mail.getByRole("button", { name: /Confirm your email/ }).click();
      await expect(page.getByText(/localhost\/welcome\?token=/)).toBeVisible();
      await expectAxeClean(page, `mailbox ${width} ${theme}`);
      await shot(page, `auth-mailbox-${width}-${theme}`);
      await page.goto(`/databases/${db}/auth`);
      await expect(page.getByLabel("Email verification")).toHaveValue("required");
      await expect(usersSection(page).getByRole("row").filter({ hasText: email })).toHaveCount(1);
      // Enabled once the users load; its colour fades in (a CSS transition), so axe reads it after that.
      await expect(page.getByRole("button", { name: "Show what this user gets" })).toBeEnabled();
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
      await expectAxeClean(page, `auth tab ${width} ${theme}`);
      await shot(page, `auth-admin-${width}-${theme}`);
    }
  });
});
