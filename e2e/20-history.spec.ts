import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, gridAction, rowAction, shot, signInOrSetUp, THEMED_VIEWPORTS } from "./helpers";

// Record history in the data grid: a record's History tab lists who changed what (an app's key, the member
// through the dashboard) with the columns before and after, and Restore (confirmed) writes a revision back; the
// table's Recently deleted list brings a deleted record back with its id. At 1280 and 390 px, light and dark.

const grid = (page: Page) => page.getByRole("table", { name: "Records of products" });

const setTheme = async (page: Page, look: (typeof THEMED_VIEWPORTS)[number]) => {
  await page.setViewportSize({ width: look.width, height: look.height });
  await page.evaluate((theme) => localStorage.setItem("tabula-theme", theme), look.theme);
  await page.reload();
  if (look.theme === "dark") await expect(page.locator("html")).toHaveClass(/dark/);
  else await expect(page.locator("html")).not.toHaveClass(/dark/);
};

test.use({ viewport: { width: 1280, height: 800 } });

test("History shows revisions with actor and diff, Restore writes one back, Recently deleted brings a record back", async ({ page }) => {
  test.setTimeout(90_000);
  await signInOrSetUp(page);
  const made = await page.request.post("/api/v1/databases", {
    data: { name: "History", tables: [{ name: "products", columns: [{ name: "name", type: "varchar", nullable: false }, { name: "price", type: "decimal", precision: 10, scale: 2 }] }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `history ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  const [hammer, saw] = (await (await page.request.post(`/v1/${instance}/products`, { headers, data: [{ name: "Hammer", price: 19.99 }, { name: "Saw", price: 30 }] })).json()) as { id: number }[];
  expect((await page.request.patch(`/v1/${instance}/products/${hammer.id}`, { headers, data: { name: "Hammer XL", price: 24.5 } })).status()).toBe(200);

  await page.goto(`/databases/${instance}/data?table=products`);
  const dialog = page.getByRole("dialog", { name: `Edit products #${hammer.id}` });
  const history = dialog.getByRole("list", { name: `History of products #${hammer.id}` });

  await test.step("the History tab lists both revisions with actor and the changed values", async () => {
    await rowAction(grid(page), hammer.id, "Edit");
    await dialog.getByRole("tab", { name: "History" }).click();
    await expect(history.getByRole("listitem")).toHaveCount(2);
    await expect(history.getByRole("listitem").first()).toContainText(/Updated by API key #\d+/);
    await expect(history.getByRole("listitem").first()).toContainText("Hammer → Hammer XL");
    await expect(history.getByRole("listitem").last()).toContainText("Created by API key");
    for (const look of THEMED_VIEWPORTS) {
      await setTheme(page, look);
      await rowAction(grid(page), hammer.id, "Edit");
      await dialog.getByRole("tab", { name: "History" }).click();
      await expect(history.getByRole("listitem")).toHaveCount(2);
      await shot(page, `history-tab-${look.width}-${look.theme}`);
      if (look.width === 1280) await expectAxeClean(page, `History tab, ${look.theme}`);
      await page.keyboard.press("Escape");
    }
    await setTheme(page, THEMED_VIEWPORTS[0]);
  });

  await test.step("Restore asks first, then writes the revision back as the member", async () => {
    await rowAction(grid(page), hammer.id, "Edit");
    await dialog.getByRole("tab", { name: "History" }).click();
    await history.getByRole("listitem").last().getByRole("button", { name: "Restore" }).click();
    await expect(dialog.getByRole("alertdialog", { name: "Confirm restore" })).toBeVisible();
    await expectAxeClean(page, "restore confirmation");
    await dialog.getByRole("alertdialog").getByRole("button", { name: "Restore" }).click();
    await expect(dialog).toBeHidden();
    await expect(grid(page).locator('tbody td[data-column="name"]').first()).toHaveText("Hammer");
    const revisions = (await (await page.request.get(`/v1/${instance}/products/${hammer.id}/_history`, { headers })).json()) as { actor: { kind: string } }[];
    expect(revisions).toHaveLength(3);
    expect(revisions[0].actor.kind).toBe("member");
  });

  await test.step("Recently deleted lists a deleted record and restores it with its id", async () => {
    expect((await page.request.delete(`/v1/${instance}/products/${saw.id}`, { headers })).status()).toBe(204);
    await page.reload();
    const deleted = page.getByRole("dialog", { name: "Recently deleted in products" });
    for (const look of [THEMED_VIEWPORTS[0], THEMED_VIEWPORTS[3]]) {
      await setTheme(page, look);
      await gridAction(page, "Recently deleted");
      await expect(deleted.getByRole("listitem")).toContainText([`#${saw.id}`]);
      await shot(page, `history-deleted-${look.width}-${look.theme}`);
      if (look.width === 1280) await expectAxeClean(page, `Recently deleted, ${look.theme}`);
      await page.keyboard.press("Escape");
    }
    await setTheme(page, THEMED_VIEWPORTS[0]);
    await gridAction(page, "Recently deleted");
    await deleted.getByRole("button", { name: "Restore" }).click();
    await deleted.getByRole("alertdialog").getByRole("button", { name: "Restore" }).click();
    await expect(deleted.getByRole("status")).toHaveText(`#${saw.id} is back.`);
    await expect(deleted.getByText("Nothing deleted recently")).toBeVisible();
    expect((await page.request.get(`/v1/${instance}/products/${saw.id}`, { headers })).status()).toBe(200);
  });
});
