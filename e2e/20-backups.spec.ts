import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { expectAxeClean, shot, signInOrSetUp, VIEWPORT } from "./helpers";

// The Backups panel on a database's settings: "Back up now" lists a finished backup with its size, the archive
// downloads, the schedule saves, and the archive uploads (with progress) as a new database; axe clean and
// screenshots at 1280 and 390 px.

test.use({ viewport: VIEWPORT });

test("backups: back up now, download, schedule, restore as a new database", async ({ page }, info) => {
  test.setTimeout(120_000);
  await signInOrSetUp(page);
  const made = await page.request.post("/api/v1/databases", { data: { name: "Backed up shop", tables: [{ name: "products", columns: [{ name: "title", type: "varchar" }, { name: "price", type: "decimal" }] }] } });
  expect(made.status(), await made.text()).toBe(201);
  const { instance } = await made.json();
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: "e2e backups", database: instance } })).json()).key;
  await page.request.post(`/v1/${instance}/products`, { headers: { "x-api-key": key }, data: [{ title: "Lamp", price: 19.99 }, { title: "Desk", price: 120 }] });

  await page.goto(`/databases/${instance}/settings`);
  const panel = page.getByRole("region", { name: "Backups" });
  await expect(panel.getByText("No backups yet.")).toBeVisible();
  await panel.getByRole("button", { name: "Back up now" }).click();
  const row = panel.getByRole("table", { name: "Backups" }).getByRole("row").nth(1);
  await expect(row.getByText("done")).toBeVisible({ timeout: 15_000 });
  await expect(row.getByRole("cell").nth(3)).toHaveText("2");

  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link", { name: /^Download/ }).click()]);
  const archive = info.outputPath("backup.tar.gz");
  await download.saveAs(archive);
  expect(fs.statSync(archive).size).toBeGreaterThan(100);

  await panel.getByLabel("Every (hours; empty: off)").fill("24");
  await panel.getByLabel("Keep").fill("5");
  await panel.getByRole("button", { name: "Save schedule" }).click();
  await expect(panel.getByText(/^Every 24 h, keeping 5; next /)).toBeVisible();

  await panel.getByLabel("Archive (.tar.gz)").setInputFiles(archive);
  await panel.getByLabel("New database name").fill("Restored shop");
  await panel.getByRole("button", { name: "Restore" }).click();
  await expect(panel.getByRole("status")).toContainText("Restored as Restored shop");
  await expectAxeClean(page, "the Backups panel at 1280 px");
  await shot(page, "20-backups-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(panel.getByRole("button", { name: "Back up now" })).toBeVisible();
  await expectAxeClean(page, "the Backups panel at 390 px");
  await shot(page, "20-backups-390");

  const restored = await page.request.get(`/api/v1/databases`);
  const names = ((await restored.json()) as { name: string }[]).map((d) => d.name);
  expect(names).toContain("Restored shop");
});
