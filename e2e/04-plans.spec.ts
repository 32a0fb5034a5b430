import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { nav, shot, signIn, VIEWPORT } from "./helpers";

// Plans, quotas and credits in the dashboard: a free account hits its database limit (402 with the way out),
// the operator grants it a database credit, the account spends it on its third database and sees the ledger;
// the operator edits a plan and puts it back. Runs after 01, which made the operator account.

const OPERATOR = { email: "owner@example.com", password: "correct horse battery" };
const MEMBER = { email: `plans-${randomBytes(4).toString("hex")}@example.com`, password: "member password 1" };
const SOURCE = `order-${randomBytes(4).toString("hex")}`;

test.use({ viewport: VIEWPORT });

const freePlan = async (page: Page) => {
  const res = await page.request.get("/api/v1/plans");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { name: string; max_databases: number | null }[]).find((p) => p.name === "free");
};

test("a free account hits its database limit, gets a credit from the operator and spends it", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, OPERATOR);

  const created = await page.request.post("/api/v1/accounts", { data: MEMBER });
  expect(created.status(), await created.text()).toBe(201);
  expect(await created.json()).toMatchObject({ email: MEMBER.email, plan: { name: "free", max_databases: 2 }, credits: { databases: 0 } });

  const memberContext = await browser.newContext({ viewport: VIEWPORT });
  const member = await memberContext.newPage();
  await signIn(member, MEMBER);

  await test.step("a third database past the free plan's two is refused with the limit and the way out", async () => {
    for (const name of ["Plans one", "Plans two"]) {
      const res = await member.request.post("/api/v1/databases", { data: { name } });
      expect(res.status(), await res.text()).toBe(201);
    }
    await member.goto("/databases/new");
    await member.getByLabel("Database name").fill("Plans three");
    await member.getByRole("button", { name: "Create empty database" }).click();
    const alert = member.getByRole("alert").filter({ hasText: "Your free plan" });
    await expect(alert).toContainText(
      "Your free plan allows 2 databases and this account has 2. Delete a database, add a database credit, or ask the operator of this install for a larger plan.",
    );
    await expect(alert).toContainText("Used 2 of 2 databases; 0 credits left.");
    await expect(alert.getByRole("link", { name: "Open Plan & usage" })).toHaveAttribute("href", "/settings/plan");
    await expect(member).toHaveURL(/\/databases\/new$/);
    await shot(member, "plans-01-quota-exceeded");
  });

  await test.step("Plan & usage shows the free plan full, and no credits yet", async () => {
    await member.getByRole("alert").getByRole("link", { name: "Open Plan & usage" }).click();
    await expect(member).toHaveURL(/\/settings\/plan$/);
    await expect(member.getByRole("heading", { name: "Plan & usage" })).toBeVisible();
    await expect(member.getByRole("region", { name: "Plan", exact: true })).toContainText("free");
    await expect(member.getByRole("progressbar", { name: "Databases" })).toHaveAttribute("aria-valuetext", "2 of 2");
    await expect(member.getByRole("region", { name: "Usage", exact: true })).toContainText("2 of 2");
    await expect(member.getByLabel("Database credits")).toHaveText(/^Database credits\s*0$/);
    await expect(member.getByText("No credits yet")).toBeVisible();
    await expect(member.getByText("Ask the operator of this install")).toBeVisible();
    await expect(nav(member).getByRole("link", { name: "Plan & usage" })).toBeVisible();
    await expect(nav(member).getByRole("link", { name: "Plans", exact: true })).toHaveCount(0);
    await shot(member, "plans-02-plan-usage-full");
  });

  await test.step("the operator grants the account one database credit from Accounts", async () => {
    await nav(page).getByRole("link", { name: "Accounts" }).click();
    await expect(page.getByRole("heading", { name: "Accounts" })).toBeVisible();
    const row = page.locator(`tr[data-account="${MEMBER.email}"]`);
    await expect(row.getByLabel(`Plan of ${MEMBER.email}`)).toHaveValue("free");
    await expect(row.locator('td[data-column="databases"]')).toHaveText("2 / 2");
    await expect(row.locator('td[data-column="credits"]')).toContainText("Databases: 0");
    await expect(page.locator(`tr[data-account="${OPERATOR.email}"]`)).toContainText("Operator (unlimited)");

    await row.getByRole("button", { name: "Grant credits" }).click();
    const dialog = page.getByRole("dialog", { name: "Grant credits" });
    await expect(dialog).toContainText(`To ${MEMBER.email}.`);
    await dialog.getByLabel("Kind").selectOption("databases");
    await dialog.getByLabel("Amount").fill("1");
    await dialog.getByLabel("Source (optional)").fill(SOURCE);
    await dialog.getByLabel("Note (optional)").fill("one more database");
    await shot(page, "plans-03-grant-dialog");
    await dialog.getByRole("button", { name: "Grant credits" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "Granted" })).toContainText(`Granted 1 database credit to ${MEMBER.email}.`);
    await expect(row.locator('td[data-column="credits"]')).toContainText("Databases: 1");
    await shot(page, "plans-04-accounts-after-grant");
  });

  await test.step("granting the same source again adds nothing, and says so", async () => {
    const row = page.locator(`tr[data-account="${MEMBER.email}"]`);
    await row.getByRole("button", { name: "Grant credits" }).click();
    const dialog = page.getByRole("dialog", { name: "Grant credits" });
    await dialog.getByLabel("Amount").fill("5");
    await dialog.getByLabel("Source (optional)").fill(SOURCE);
    await dialog.getByRole("button", { name: "Grant credits" }).click();
    await expect(dialog.getByRole("status")).toContainText("Already granted: nothing added.");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(row.locator('td[data-column="credits"]')).toContainText("Databases: 1");
    const accounts = (await (await page.request.get("/api/v1/accounts")).json()) as { email: string; credits: { databases: number } }[];
    expect(accounts.find((a) => a.email === MEMBER.email)?.credits.databases).toBe(1);
  });

  await test.step("the account creates its third database, spending the credit", async () => {
    await member.goto("/databases/new");
    await member.getByLabel("Database name").fill("Plans three");
    await member.getByRole("button", { name: "Create empty database" }).click();
    await expect(member).toHaveURL(/\/databases\/plans_three_[a-z0-9]{6}\/schema$/);
  });

  await test.step("Plan & usage shows 3 of 3 and the ledger shows the grant and the spend", async () => {
    await nav(member).getByRole("link", { name: "Plan & usage" }).click();
    await expect(member.getByRole("progressbar", { name: "Databases" })).toHaveAttribute("aria-valuetext", "3 of 3");
    await expect(member.getByRole("region", { name: "Usage", exact: true })).toContainText("1 database credit spent raised it to 3");
    await expect(member.getByLabel("Database credits")).toHaveText(/^Database credits\s*0$/);
    const ledger = member.getByRole("table", { name: "Credits ledger" });
    await expect(ledger.locator("tbody tr")).toHaveCount(2);
    const [spend, grant] = [ledger.locator("tbody tr").nth(0), ledger.locator("tbody tr").nth(1)];
    await expect(spend).toHaveAttribute("data-entry", "spend");
    await expect(spend).toContainText("Databases");
    await expect(spend).toContainText("−1");
    await expect(grant).toHaveAttribute("data-entry", "grant");
    await expect(grant).toContainText(SOURCE);
    await expect(grant).toContainText("+1");
    await expect(grant).toContainText("one more database");
    await shot(member, "plans-05-plan-usage-after-credit");
  });

  await test.step("the operator's own Plan & usage says it is unlimited", async () => {
    await nav(page).getByRole("link", { name: "Plan & usage" }).click();
    await expect(page.getByRole("status").filter({ hasText: "operator" })).toHaveText(
      "You are the operator of this install: your account is unlimited, whatever the plans say.",
    );
    await expect(page.getByRole("region", { name: "Plan", exact: true })).toContainText("operator");
    const own = (await (await page.request.get("/api/v1/account")).json()) as { usage: { databases: number } };
    await expect(page.getByRole("region", { name: "Usage", exact: true })).toContainText(`Databases${own.usage.databases} · unlimited`);
    await expect(page.getByRole("progressbar", { name: "Databases" })).toHaveCount(0);
    await shot(page, "plans-07-operator-unlimited");
  });

  await test.step("the operator raises free's database limit in Plans, and puts it back", async () => {
    await nav(page).getByRole("link", { name: "Plans", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Plans", exact: true })).toBeVisible();
    const free = page.getByRole("form", { name: "free", exact: true });
    const databases = free.getByLabel("Databases", { exact: true });
    await expect(databases).toHaveValue("2");

    await databases.fill("");
    await free.getByRole("button", { name: "Save" }).click();
    await expect(free.locator("#plan-free-max_databases-error")).toHaveText("Enter a whole number (0 or more), or tick Unlimited.");
    expect((await freePlan(page))?.max_databases).toBe(2);

    await databases.fill("5");
    await free.getByRole("button", { name: "Save" }).click();
    await expect(free.getByRole("status")).toContainText("Saved");
    expect((await freePlan(page))?.max_databases).toBe(5);
    await shot(page, "plans-06-plans-editor");

    await member.reload();
    await expect(member.getByRole("progressbar", { name: "Databases" })).toHaveAttribute("aria-valuetext", "3 of 6");

    await databases.fill("2");
    await free.getByRole("button", { name: "Save" }).click();
    await expect(free.getByRole("status")).toContainText("Saved");
    expect((await freePlan(page))?.max_databases).toBe(2);
  });

  await memberContext.close();
});
