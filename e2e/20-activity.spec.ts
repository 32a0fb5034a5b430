import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, nav, shot, signInOrSetUp } from "./helpers";

// The Activity page (the audit log) as the owner made by 01, at 1280 px light and 390 px dark: the changes just
// made through the API listed newest first with who and how, the "What" filter, a row's values unfolded, and a
// database's own Activity tab. axe clean on each page.

const makeChanges = async (page: Page, name: string) => {
  const made = await page.request.post("/api/v1/databases", { data: { name, tables: [{ name: "orders", columns: [{ name: "note", type: "varchar" }] }] } });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const column = await page.request.post(`/api/v1/databases/${instance}/tables/orders/columns`, { data: { name: "price", type: "int" } });
  expect(column.status(), await column.text()).toBe(201);
  const changed = await page.request.patch(`/api/v1/databases/${instance}/tables/orders/columns/price`, { data: { type: "decimal" } });
  expect(changed.status(), await changed.text()).toBe(200);
  return instance;
};

for (const v of FLOW_VIEWPORTS) {
  test.describe(`at ${v.width} px, ${v.theme}`, () => {
    test.use({ viewport: { width: v.width, height: v.height }, colorScheme: v.theme });
    const tag = `${v.width}-${v.theme}`;

    test("the workspace's activity with filters, a row's values, and a database's Activity tab", async ({ page }) => {
      await page.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), v.theme);
      // Through the form: the log below shows this sign-in.
      await signInOrSetUp(page, { throughForm: true });
      const instance = await makeChanges(page, `Activity ${tag}`);

      await page.goto("/settings/activity");
      if (v.width >= 768) await expect(nav(page).getByRole("link", { name: "Activity", exact: true })).toBeVisible();
      const log = page.getByRole("table", { name: "Activity" });
      const rows = log.locator("tbody tr[data-entry]");
      await expect(rows.first()).toContainText("column.update", { timeout: 20_000 });
      await expect(rows.first()).toContainText("orders.price");
      await expect(rows.nth(1)).toContainText("column.create");
      await expect(rows.first()).toContainText("via dashboard");
      await expect(rows.first()).toContainText(instance);
      await expect(page.getByRole("table", { name: "Activity" }).getByText("signin.ok").first()).toBeVisible();

      await page.getByLabel("What").selectOption("column.");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(rows.first()).toContainText("column.update");
      await expect(log.getByText("signin.ok")).toHaveCount(0);
      await rows.first().getByRole("button", { name: "Values" }).click();
      const values = log.getByRole("row", { name: /^Values of entry/ });
      await expect(values.getByText("Before")).toBeVisible();
      await expect(values).toContainText('"type": "decimal"');
      await expectAxeClean(page, `activity ${tag}`);
      await shot(page, `activity-${tag}`);

      await page.goto(`/databases/${instance}/activity`);
      await expect(page.getByRole("navigation", { name: "Database sections" }).getByRole("link", { name: "Activity" })).toHaveAttribute("aria-current", "page");
      const tab = page.getByRole("table", { name: "Activity" });
      await expect(tab.locator("tbody tr[data-entry]")).toHaveCount(3, { timeout: 20_000 });
      await expect(tab.locator("tbody tr[data-entry]").last()).toContainText("database.create");
      await expectAxeClean(page, `database activity ${tag}`);
      await shot(page, `database-activity-${tag}`);
    });
  });
}
