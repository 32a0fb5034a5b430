import { expect, type Page, type PlaywrightWorkerArgs, test } from "@playwright/test";
import { expectAxeClean, signInOrSetUp } from "./helpers";

// An inline edit with Live on stays bound to its record: another client deleting a row above the open editor
// neither moves the editor nor loses the typing, and the save lands in the record being edited; a delete of
// the edited record itself is said in the cell, and nothing is written anywhere.

type Note = { id: number; title: string };

const makeDatabase = async (page: Page, name: string) => {
  const made = await page.request.post("/api/v1/databases", {
    data: { name, tables: [{ name: "notes", columns: [{ name: "title", type: "varchar", length: 80, nullable: false }] }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `live ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  const notes = Array.from({ length: 30 }, (_, i) => ({ title: `Note ${String(i + 1).padStart(2, "0")}` }));
  expect((await page.request.post(`/v1/${instance}/notes`, { headers, data: notes })).status()).toBe(201);
  return { instance, headers };
};

const grid = (page: Page) => page.getByRole("table", { name: "Records of notes" });
const titleCell = (page: Page, id: number) => grid(page).locator(`tr[data-record-id="${id}"] td[data-column="title"]`);

test.use({ viewport: { width: 1280, height: 800 } });

/** The grid with Live on, and the other client: a context of its own, writing through the data API with a key. */
const openGrid = async (page: Page, playwright: PlaywrightWorkerArgs["playwright"], baseURL: string | undefined, name: string) => {
  await signInOrSetUp(page);
  const { instance, headers } = await makeDatabase(page, name);
  const other = await playwright.request.newContext({ baseURL, extraHTTPHeaders: headers });
  const readAll = async () => ((await (await other.get(`/v1/${instance}/notes?_sort=id&_limit=100`)).json()) as Note[]).map(({ id, title }) => ({ id, title }));
  await page.goto(`/databases/${instance}/data?table=notes`);
  await expect(page.getByRole("status", { name: "Live updates: Live" })).toBeVisible();
  await expect(grid(page).locator("tbody tr")).toHaveCount(25);
  return { instance, other, readAll };
};

test("a row above is deleted mid-edit: the typing stays and Enter saves the edited record", async ({ page, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const { instance, other, readAll } = await openGrid(page, playwright, baseURL, "Live edits above");
  const before = await readAll();
  await titleCell(page, 24).dblclick();
  const input = page.getByLabel("title of record 24");
  await input.press("ControlOrMeta+A");
  await page.keyboard.type("Revised ");
  expect((await other.delete(`/v1/${instance}/notes/8`)).status()).toBe(204);
  await expect(grid(page).locator('tr[data-record-id="8"]')).toHaveCount(0);
  await expect(grid(page).locator('tr[data-record-id="26"]')).toHaveCount(1);
  await expect(page.getByLabel("title of record 24")).toHaveValue("Revised ");
  await expect(page.getByLabel("title of record 24")).toBeFocused();
  await page.keyboard.type("by id");
  await page.keyboard.press("Enter");
  await expect(titleCell(page, 24)).toHaveText("Revised by id");
  const after = await readAll();
  expect(after).toEqual(before.filter((n) => n.id !== 8).map((n) => (n.id === 24 ? { id: 24, title: "Revised by id" } : n)));
  await other.dispose();
});

test("the edited record itself is deleted: the cell says so, Enter writes nothing", async ({ page, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const { instance, other, readAll } = await openGrid(page, playwright, baseURL, "Live edits gone");
  const start = await readAll();
  await titleCell(page, 20).dblclick();
  await page.getByLabel("title of record 20").press("ControlOrMeta+A");
  await page.keyboard.type("Doomed");
  expect((await other.delete(`/v1/${instance}/notes/20`)).status()).toBe(204);
  const cell = titleCell(page, 20);
  await expect(cell.getByRole("alert")).toHaveText("Record 20 was deleted by someone else; nothing was saved. Esc closes.");
  await page.screenshot({ path: "test-results/screens/live-edit-deleted-1280.png" });
  await expectAxeClean(page, "grid with a deleted record's editor");
  await page.getByLabel("title of record 20").press("Enter");
  await expect(cell.getByRole("alert")).toBeVisible();
  expect((await other.get(`/v1/${instance}/notes/20`)).status()).toBe(404);
  expect(await readAll()).toEqual(start.filter((n) => n.id !== 20));
  await page.getByLabel("title of record 20").press("Escape");
  await expect(grid(page).locator('tr[data-record-id="20"]')).toHaveCount(0);
  await expect(titleCell(page, 21)).toHaveText("Note 21");
  await page.setViewportSize({ width: 390, height: 844 });
  await titleCell(page, 2).dblclick();
  await expect(page.getByLabel("title of record 2")).toBeFocused();
  await page.screenshot({ path: "test-results/screens/live-edit-grid-390.png" });
  await other.dispose();
});
