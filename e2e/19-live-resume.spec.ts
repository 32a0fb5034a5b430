import { expect, type Page, test } from "@playwright/test";
import { signInOrSetUp } from "./helpers";

// Resume catches up: rows another client writes while the grid's Live mode is paused appear at once on Resume,
// whether or not the feed had delivered an event before the pause, and the feed keeps following afterwards.

const grid = (page: Page) => page.getByRole("table", { name: "Records of notes" });
const titles = (page: Page) => grid(page).locator('tbody td[data-column="title"]');
const liveBadge = (page: Page, label: string) => page.getByRole("status", { name: `Live updates: ${label}` });

test.use({ viewport: { width: 1280, height: 800 } });

for (const seenBefore of [true, false]) {
  test(`Resume shows the rows written while paused (${seenBefore ? "after" : "before"} a first live event)`, async ({ page, playwright, baseURL }) => {
    test.setTimeout(120_000);
    await signInOrSetUp(page);
    const made = await page.request.post("/api/v1/databases", {
      data: { name: `Live resume ${seenBefore}`, tables: [{ name: "notes", columns: [{ name: "title", type: "varchar", length: 80, nullable: false }] }] },
    });
    expect(made.status(), await made.text()).toBe(201);
    const instance = (await made.json()).instance as string;
    const key = (await (await page.request.post("/api/v1/keys", { data: { name: `resume ${instance}`, database: instance } })).json()).key as string;
    const other = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-api-key": key } });
    const insert = async (...names: string[]) =>
      expect((await other.post(`/v1/${instance}/notes`, { data: names.map((title) => ({ title })) })).status()).toBe(201);
    await insert("First", "Second");

    await page.goto(`/databases/${instance}/data?table=notes`);
    await expect(liveBadge(page, "Live")).toBeVisible();
    await expect(titles(page)).toHaveText(["First", "Second"]);
    if (seenBefore) {
      await insert("Seen live");
      await expect(titles(page)).toHaveText(["First", "Second", "Seen live"]);
    }
    const before = seenBefore ? ["First", "Second", "Seen live"] : ["First", "Second"];

    await page.getByRole("button", { name: "Pause" }).click();
    await expect(liveBadge(page, "Paused")).toBeVisible();
    await insert("Paused one", "Paused two");
    await insert("Paused three");
    await page.waitForTimeout(1000);
    await expect(titles(page)).toHaveText(before);

    await page.getByRole("button", { name: "Resume" }).click();
    await expect(titles(page)).toHaveText([...before, "Paused one", "Paused two", "Paused three"], { timeout: 3000 });
    await expect(liveBadge(page, "Live")).toBeVisible({ timeout: 3000 });
    await page.screenshot({ path: `test-results/screens/live-resume-${seenBefore ? "seen" : "unseen"}-1280.png` });

    await insert("After resume");
    await expect(titles(page)).toHaveText([...before, "Paused one", "Paused two", "Paused three", "After resume"]);
    await other.dispose();
  });
}
