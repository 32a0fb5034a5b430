import { type Browser, expect, type Page, test } from "@playwright/test";
import { seriousAxeViolations, shot, signIn, signInOrSetUp } from "./helpers";

// Every dashboard page at 1280 and 390 pixels (light, and dark from the system setting): no sideways page
// scroll, and no serious or critical axe violation. Then the phone drawer, the skip link, focus after dialogs,
// the theme toggle, the 404 pages, and the operator's account controls with a member's own password change.
// Runs after 01-dashboard.spec.ts, which creates the operator and the "Blog" database.

const OPERATOR = { email: "owner@example.com", password: "correct horse battery" };

type Width = 1280 | 390;
type Scheme = "light" | "dark";

type Violation = { page: string; width: Width; scheme: Scheme; rule: string; impact: string; targets: string[] };

/** Serious and critical axe violations on the page as it is now (nothing excluded). */
const axeViolations = async (page: Page, where: { page: string; width: Width; scheme: Scheme }): Promise<Violation[]> => {
  return (await seriousAxeViolations(page, `${where.page} at ${where.width} px, ${where.scheme}`)).map((v) => ({ ...where, rule: v.id, impact: v.impact!, targets: v.nodes.slice(0, 6).map((n) => n.target.join(" ")) }));
};

const call = async (page: Page, method: string, path: string, body?: unknown) => {
  const res = await page.request.fetch(path, { method, data: body === undefined ? undefined : body });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? undefined : res.json();
};

type PageSpec = { name: string; path: string; ready: (page: Page) => Promise<void> };

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { name, level: 1 }).first()).toBeVisible({ timeout: 20_000 });
};

/** The dashboard's pages, each with what shows it is ready (data loaded, not a spinner). */
const pagesOf = (blog: string, buildId: number): PageSpec[] => [
  { name: "databases", path: "/databases", ready: heading("Databases") },
  { name: "shared", path: "/databases?scope=shared", ready: heading(/Shared with me|Databases/) },
  { name: "new-database", path: "/databases/new", ready: heading("New database") },
  {
    name: "quick-create",
    path: "/databases/new",
    ready: async (p) => {
      await p.getByRole("button", { name: "Add a table (quick create)" }).click();
      await expect(p.getByRole("region", { name: "Table 1" })).toBeVisible();
    },
  },
  { name: "schema", path: `/databases/${blog}/schema`, ready: async (p) => expect(p.getByRole("table", { name: /Columns of/ })).toBeVisible({ timeout: 20_000 }) },
  { name: "data", path: `/databases/${blog}/data`, ready: async (p) => expect(p.getByRole("table", { name: /Records of/ })).toBeVisible({ timeout: 20_000 }) },
  { name: "joins", path: `/databases/${blog}/joins`, ready: heading("Blog") },
  { name: "auth", path: `/databases/${blog}/auth`, ready: async (p) => expect(p.getByRole("form", { name: "Auth settings" })).toBeVisible({ timeout: 20_000 }) },
  { name: "hooks", path: `/databases/${blog}/hooks`, ready: heading("Blog") },
  { name: "docs", path: `/databases/${blog}/docs`, ready: async (p) => expect(p.locator(".opblock").first()).toBeVisible({ timeout: 30_000 }) },
  { name: "db-settings", path: `/databases/${blog}/settings`, ready: async (p) => expect(p.getByRole("button", { name: "Delete database…" })).toBeVisible({ timeout: 20_000 }) },
  { name: "ai", path: "/ai", ready: heading(/AI/) },
  { name: "ai-build", path: `/ai/${buildId}`, ready: heading(/.+/) },
  { name: "settings", path: "/settings", ready: heading("Settings") },
  { name: "keys", path: "/settings/keys", ready: heading("API keys") },
  { name: "team", path: "/settings/team", ready: heading(/Team/) },
  { name: "plan", path: "/settings/plan", ready: heading(/Plan/) },
  { name: "plans", path: "/settings/plans", ready: heading(/Plans/) },
  { name: "accounts", path: "/settings/accounts", ready: async (p) => expect(p.getByRole("table", { name: "Accounts" })).toBeVisible({ timeout: 20_000 }) },
  { name: "account", path: "/settings/account", ready: heading("Your account") },
  { name: "mailbox", path: "/settings/mailbox", ready: heading("Mailbox") },
  { name: "not-found", path: "/no/such/page", ready: heading("Page not found") },
  { name: "missing-database", path: "/databases/nope_000000/schema", ready: heading("Database not found") },
];

const blogInstance = async (page: Page) => {
  const databases = (await call(page, "GET", "/api/v1/databases")) as { instance: string; name: string }[];
  return databases.find((d) => d.name === "Blog")!.instance;
};

/** Lets the page settle (fonts, late queries) so the scan and the width measure what a user sees. */
const settle = async (page: Page) => {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await expect(page.getByRole("status").filter({ hasText: /Loading|Checking/ })).toHaveCount(0, { timeout: 20_000 });
};

test("every dashboard page fits 390 px and has no serious or critical axe violation, light and dark", async ({ page }) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, OPERATOR);
  const blog = await blogInstance(page);
  const build = (await call(page, "POST", "/api/v1/ai/builds", { prompt: "A recipe book with recipes and ingredients" })) as { id: number };
  const pages = pagesOf(blog, build.id);
  const violations: Violation[] = [];
  const overflow: { page: string; width: number; scrollWidth: number }[] = [];
  // Each width walks the pages in two tabs of the same signed-in browser, the four side by side while one waits for
  // its page to settle. Every page is loaded fresh at its width in the light scheme, scanned and shot, then switched
  // to the dark system scheme (the dashboard follows a change of the system's scheme without a reload), scanned and
  // shot again: each look is checked, with half the page loads.
  const halves = [pages.slice(0, Math.ceil(pages.length / 2)), pages.slice(Math.ceil(pages.length / 2))];
  await Promise.all(
    ([1280, 390] as const).flatMap((width) =>
      halves.map(async (specs) => {
        const tab = await page.context().newPage();
        await tab.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        for (const spec of specs) {
          await test.step(`${spec.name} at ${width} px`, async () => {
            await tab.emulateMedia({ colorScheme: "light" });
            await tab.goto(spec.path);
            await spec.ready(tab);
            await settle(tab);
            for (const scheme of ["light", "dark"] as const) {
              if (scheme === "dark") await tab.emulateMedia({ colorScheme: "dark" });
              await expect.poll(() => tab.evaluate(() => document.documentElement.classList.contains("dark")), { message: `${spec.name} follows the ${scheme} scheme` }).toBe(scheme === "dark");
              const scrollWidth = await tab.evaluate(() => document.scrollingElement!.scrollWidth);
              if (scrollWidth > width) overflow.push({ page: spec.name, width, scrollWidth });
              violations.push(...(await axeViolations(tab, { page: spec.name, width, scheme })));
              await shot(tab, `a11y-${width}-${scheme === "dark" ? "dark-" : ""}${spec.name}`);
            }
          });
        }
        await tab.close();
      }),
    ),
  );
  // Every page and rule at once, so one run names all that is left to fix.
  console.log(JSON.stringify({ overflow, violations }, null, 1));
  expect(overflow).toEqual([]);
  expect(violations).toEqual([]);
});

test("below md the sidebar is a drawer: menu button, focus kept inside, Escape closes and returns focus; a skip link leads to the content", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, OPERATOR);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  const menu = page.getByRole("button", { name: "Open navigation" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  const drawer = page.getByRole("dialog", { name: "Navigation" });
  await expect(drawer.getByRole("navigation", { name: "Main" })).toBeVisible();
  await shot(page, "a11y-390-drawer-open");
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press("Tab");
    expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  // Following a link closes the drawer and lands on the page.
  await menu.click();
  await drawer.getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/settings\/keys$/);
  await expect(drawer).toBeHidden();
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();

  // The tabs of a database scroll sideways instead of widening the page.
  await page.goto(`/databases/${await blogInstance(page)}/settings`);
  const tabs = page.getByRole("navigation", { name: "Database sections" });
  await expect(tabs.getByRole("link", { name: "Settings" })).toBeAttached();
  expect(await tabs.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  await tabs.getByRole("link", { name: "Settings" }).scrollIntoViewIfNeeded();
  await shot(page, "a11y-390-tabs-scrolled");

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/databases");
  await expect(page.getByRole("heading", { name: "Databases", level: 1 })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});

test("the sidebar, the database cards and the database tabs prefetch a page once pointed at, not on sight", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInOrSetUp(page);
  const db = (await call(page, "POST", "/api/v1/databases", { name: "Prefetch notes", tables: [{ name: "notes", columns: [{ name: "body", type: "text" }] }] })) as { instance: string };
  const prefetched: string[] = [];
  page.on("request", (r) => {
    if (r.headers()["next-router-prefetch"]) prefetched.push(new URL(r.url()).pathname);
  });
  await page.goto("/databases");
  const card = page.locator(`a[data-database="${db.instance}"]`);
  await expect(card).toBeVisible();
  await page.waitForLoadState("networkidle");
  // On screen in the sidebar and as a card, yet not loaded ahead.
  expect(prefetched).not.toContain(`/databases/${db.instance}/schema`);
  await card.hover();
  await expect.poll(() => prefetched).toContain(`/databases/${db.instance}/schema`);
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/databases/${db.instance}/schema$`));
  const tabs = page.getByRole("navigation", { name: "Database sections" });
  await expect(tabs.getByRole("link", { name: "Data" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(prefetched).not.toContain(`/databases/${db.instance}/data`);
  await tabs.getByRole("link", { name: "Data" }).focus();
  await expect.poll(() => prefetched).toContain(`/databases/${db.instance}/data`);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/databases/${db.instance}/data$`));
});

test("focus returns to the control that opened a dialog", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, OPERATOR);
  await page.goto(`/databases/${await blogInstance(page)}/schema`);
  const addColumn = page.getByRole("button", { name: "Add column" });
  await addColumn.click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(addColumn).toBeFocused();

  await page.goto("/settings/keys");
  const create = page.getByRole("button", { name: /Create key|New key/ }).first();
  await create.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(create).toBeFocused();
});

test("dark mode follows the system, the toggle overrides it and is remembered without a flash", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, OPERATOR);
  const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
  const theme = page.getByRole("group", { name: "Theme" }).first();
  await expect(theme.getByRole("button", { name: "System" })).toHaveAttribute("aria-pressed", "true");
  expect(await isDark()).toBe(true);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(isDark).toBe(false);

  await theme.getByRole("button", { name: "Dark" }).click();
  expect(await isDark()).toBe(true);
  expect(await page.evaluate(() => localStorage.getItem("tabula-theme"))).toBe("dark");
  // The class is on <html> when the document is parsed, before React runs: no light flash on load.
  await page.goto("/settings/account", { waitUntil: "domcontentloaded" });
  expect(await isDark()).toBe(true);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe("rgb(248, 250, 252)");
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await shot(page, "a11y-1280-dark-toggle");

  await page.getByRole("group", { name: "Theme" }).first().getByRole("button", { name: "Light" }).click();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  expect(await isDark()).toBe(false);
  await page.getByRole("group", { name: "Theme" }).first().getByRole("button", { name: "System" }).click();
  expect(await isDark()).toBe(true);
  expect(await page.evaluate(() => localStorage.getItem("tabula-theme"))).toBeNull();
  await page.emulateMedia({ colorScheme: "light" });
});

test("no dead ends: /settings lists its pages, an unknown page and a missing database offer the way back", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, OPERATOR);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  for (const name of ["API keys", "Team", "Plan & usage", "Your account", "Accounts", "Plans", "Mailbox"]) {
    await expect(page.getByRole("main").getByRole("link", { name: new RegExp(`^${name.replace("&", "\\&")}`) })).toBeVisible();
  }
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await shot(page, "a11y-1280-404");
  await page.getByRole("link", { name: "Your databases" }).click();
  await expect(page).toHaveURL(/\/databases$/);

  await page.goto("/databases/nope_000000/schema");
  await expect(page.getByRole("heading", { name: "Database not found" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
  await shot(page, "a11y-1280-missing-database");
  await page.getByRole("link", { name: "Back to your databases" }).click();
  await expect(page).toHaveURL(/\/databases$/);
});

test("the Auth tab offers to create a users table when none fits, and selects it", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, OPERATOR);
  const db = (await call(page, "POST", "/api/v1/databases", { name: "Shop", tables: [{ name: "products", columns: [{ name: "title", type: "varchar" }] }] })) as { instance: string };
  await page.goto(`/databases/${db.instance}/auth`);
  const settings = page.getByRole("form", { name: "Auth settings" });
  await expect(settings.getByText("No table of this database can hold logins")).toBeVisible();
  await settings.getByRole("button", { name: "Create a users table (email, password)" }).click();
  await expect(settings.getByLabel("Users table", { exact: true })).toHaveValue("users");
  await expect(settings.getByLabel(/Login column/)).toHaveValue("email");
  await expect(settings.getByLabel(/Password column/)).toHaveValue("password");
  await expect(settings.getByText("No table of this database can hold logins")).toHaveCount(0);
  const table = (await call(page, "GET", `/api/v1/databases/${db.instance}/tables/users`)) as { columns: { name: string; type: string }[] };
  expect(table.columns.map((c) => [c.name, c.type])).toEqual(expect.arrayContaining([["email", "varchar"], ["password", "password"]]));
  // The products table has no owner-like column: the presets that need one wait for it rather than guess "title".
  await page.getByLabel("Table", { exact: true }).selectOption("products");
  await expect(page.getByLabel("Owner column (for presets)")).toHaveValue("");
  await expect(page.getByRole("button", { name: "Owner only" })).toBeDisabled();
  await settings.getByRole("button", { name: "Save auth settings" }).click();
  await expect(settings.getByText("Saved.")).toBeVisible();
  await shot(page, "a11y-1280-auth-users-created");
});

const signInAs = async (browser: Browser, who: { email: string; password: string }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  return { context, page };
};

test("the operator resets a password and disables an account; the member changes their own password", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, OPERATOR);
  const email = `member-${Date.now()}@example.com`;
  await call(page, "POST", "/api/v1/accounts", { email, password: "first password 1" });
  await page.goto("/settings/accounts");
  const row = page.locator(`tr[data-account="${email}"]`);
  await expect(row.locator('[data-column="status"]')).toHaveText("Active");

  // Reset: a generated password, shown once.
  const resetButton = row.getByRole("button", { name: `Reset the password of ${email}` });
  await resetButton.click();
  const reset = page.getByRole("dialog", { name: "Reset password" });
  await reset.getByRole("button", { name: "Reset password" }).click();
  const generated = (await reset.getByTestId("generated-password").textContent())!.trim();
  expect(generated).toMatch(/^[a-zA-Z2-9]{4}(-[a-zA-Z2-9]{4}){3}$/);
  await shot(page, "a11y-1280-reset-password");
  await reset.getByRole("button", { name: "Done" }).click();
  await expect(resetButton).toBeFocused();

  // Disable: the member's sign-in says why it is refused.
  await row.getByRole("button", { name: `Disable ${email}` }).click();
  await page.getByRole("dialog", { name: `Disable ${email}?` }).getByRole("button", { name: "Disable account" }).click();
  await expect(row.locator('[data-column="status"]')).toHaveText("Disabled");
  await expect(page.getByRole("status").filter({ hasText: `${email} is disabled` })).toBeVisible();
  await shot(page, "a11y-1280-account-disabled");
  const refused = await signInAs(browser, { email, password: generated });
  await expect(refused.page.getByText("This account is disabled. Ask the operator of this install to enable it again.")).toBeVisible();
  await shot(refused.page, "a11y-1280-login-disabled");
  await refused.context.close();

  // Enabled again: the generated password signs in, and the member changes it.
  await row.getByRole("button", { name: `Enable ${email}` }).click();
  await expect(row.locator('[data-column="status"]')).toHaveText("Active");
  const member = await signInAs(browser, { email, password: generated });
  await expect(member.page).toHaveURL(/\/databases$/);
  await member.page.getByRole("link", { name: "Your account" }).click();
  const form = member.page.getByRole("form", { name: "Change your password" });
  await form.getByLabel("Current password").fill("not the password");
  await form.getByLabel("New password", { exact: true }).fill("my own password 2");
  await form.getByLabel("Confirm new password").fill("my own password 2");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("current_password is not this account's password")).toBeVisible();
  await shot(member.page, "a11y-1280-own-password-wrong");
  await form.getByLabel("Current password").fill(generated);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("Password changed.")).toBeVisible();
  await member.context.close();
  const again = await signInAs(browser, { email, password: "my own password 2" });
  await expect(again.page).toHaveURL(/\/databases$/);
  await again.context.close();
});
