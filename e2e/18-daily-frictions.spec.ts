import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, signInOrSetUp } from "./helpers";

// Small frictions of daily work: an inline edit saves when focus leaves it (Escape cancels, a refusal keeps
// it open, double-clicking another cell saves first); the dashboard calls the data API with its own key, not
// the newest account-wide one; the joins list says inner or left per joined table and a save confirms by its button.

const makeDatabase = async (page: Page, name: string) => {
  const made = await page.request.post("/api/v1/databases", {
    data: {
      name,
      tables: [
        { name: "authors", columns: [{ name: "name", type: "varchar", length: 80, nullable: false }] },
        { name: "notes", columns: [{ name: "title", type: "varchar", length: 80, nullable: false, unique: true }, { name: "author_id", type: "reference", references: "authors" }] },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `seed ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  expect((await page.request.post(`/v1/${instance}/authors`, { headers, data: [{ name: "Le Guin" }] })).status()).toBe(201);
  const notes = Array.from({ length: 12 }, (_, i) => ({ title: `Note ${String(i + 1).padStart(2, "0")}`, author_id: i % 2 ? 1 : null }));
  expect((await page.request.post(`/v1/${instance}/notes`, { headers, data: notes })).status()).toBe(201);
  const titleOf = async (id: number) => ((await (await page.request.get(`/v1/${instance}/notes/${id}`, { headers })).json()) as { title: string }).title;
  return { instance, titleOf };
};

const grid = (page: Page) => page.getByRole("table", { name: "Records of notes" });
const titleCell = (page: Page, id: number) => grid(page).locator(`tr[data-record-id="${id}"] td[data-column="title"]`);

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`inline edits save on blur, Escape cancels, a refusal stays open, at ${viewport.width} px`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await signInOrSetUp(page);
    const { instance, titleOf } = await makeDatabase(page, `Blur ${viewport.width}`);
    await page.goto(`/databases/${instance}/data?table=notes`);
    await expect(grid(page).locator("tbody tr")).toHaveCount(12);

    await test.step("a click elsewhere saves the changed value and closes the editor", async () => {
      await titleCell(page, 1).dblclick();
      await page.getByLabel("title of record 1").fill("Saved by blur");
      await page.getByRole("heading", { level: 1 }).click();
      await expect(page.getByLabel("title of record 1")).toHaveCount(0);
      await expect(titleCell(page, 1)).toHaveText("Saved by blur");
      expect(await titleOf(1)).toBe("Saved by blur");
    });

    await test.step("Escape cancels: nothing is written", async () => {
      await titleCell(page, 2).dblclick();
      await page.getByLabel("title of record 2").fill("Never written");
      await page.getByLabel("title of record 2").press("Escape");
      await expect(page.getByLabel("title of record 2")).toHaveCount(0);
      await expect(titleCell(page, 2)).toHaveText("Note 02");
      expect(await titleOf(2)).toBe("Note 02");
    });

    await test.step("double-clicking another cell saves the open one first, then edits the new one", async () => {
      await titleCell(page, 3).dblclick();
      await page.getByLabel("title of record 3").fill("Saved before moving on");
      await titleCell(page, 4).dblclick();
      await expect(page.getByLabel("title of record 4")).toBeFocused();
      await expect(page.getByLabel("title of record 3")).toHaveCount(0);
      await expect(titleCell(page, 3)).toHaveText("Saved before moving on");
      expect(await titleOf(3)).toBe("Saved before moving on");
      await page.getByLabel("title of record 4").press("Escape");
    });

    await test.step("a refused save keeps the editor open with the error, on blur and on another double click", async () => {
      await titleCell(page, 5).dblclick();
      const input = page.getByLabel("title of record 5");
      await input.fill("Note 06");
      await page.getByRole("heading", { level: 1 }).click();
      await expect(titleCell(page, 5).getByRole("alert")).toBeVisible();
      await expect(input).toHaveValue("Note 06");
      await titleCell(page, 7).dblclick();
      await expect(titleCell(page, 5).getByRole("alert")).toBeVisible();
      await expect(page.getByLabel("title of record 7")).toHaveCount(0);
      await page.screenshot({ path: `/tmp/dash2-shots/grid-refused-blur-${viewport.width}.png` });
      await expectAxeClean(page, `grid with a refused edit ${viewport.width}`);
      expect(await titleOf(5)).toBe("Note 05");
      await input.press("Escape");
      await expect(titleCell(page, 5)).toHaveText("Note 05");
    });
  });
}

test.describe("at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the dashboard uses a key of its own: a newer CI key, then its revocation, change nothing", async ({ page }) => {
    test.setTimeout(120_000);
    await signInOrSetUp(page);
    const { instance } = await makeDatabase(page, "Own key");
    const sent: string[] = [];
    page.on("request", (r) => r.url().includes(`/v1/${instance}/`) && r.headers()["x-api-key"] && sent.push(r.headers()["x-api-key"]));
    const loadGrid = async () => {
      sent.length = 0;
      await page.goto(`/databases/${instance}/data?table=notes`);
      await expect(grid(page).locator("tbody tr")).toHaveCount(12);
      expect(new Set(sent).size).toBe(1);
      return sent[0];
    };
    const before = await loadGrid();
    const ci = await page.request.post("/api/v1/keys", { data: { name: "CI" } });
    expect(ci.status()).toBe(201);
    const ciKey = (await ci.json()) as { id: number; key: string };
    const keys = (await (await page.request.get("/api/v1/keys")).json()) as { id: number; name: string; key: string; database: string | null }[];
    const own = keys.find((k) => k.key === before);
    expect(own).toMatchObject({ name: "Dashboard", database: null });
    expect(keys[0].id).toBe(ciKey.id);
    expect(await loadGrid()).toBe(before);

    await page.goto("/settings/keys");
    const ciRow = page.locator(`tr[data-key-id="${ciKey.id}"]`);
    await expect(page.locator(`tr[data-key-id="${own!.id}"]`)).toContainText("Used by this dashboard’s data browser and docs");
    await expect(ciRow).not.toContainText("Used by this dashboard");
    await page.screenshot({ path: "/tmp/dash2-shots/keys-1280.png", fullPage: true });
    await ciRow.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog", { name: "Revoke “CI”?" }).getByRole("button", { name: "Revoke key" }).click();
    await expect(page.getByRole("status")).toContainText("“CI” was revoked");
    expect(await loadGrid()).toBe(before);
  });

  test("the joins list says inner or left per table; a save confirms beside its button", async ({ page }) => {
    test.setTimeout(120_000);
    await signInOrSetUp(page);
    const { instance } = await makeDatabase(page, "Join kinds");
    const made = await page.request.post(`/api/v1/databases/${instance}/joins`, {
      data: { name: "notes_authors", sql: "SELECT n.title AS title, a.name AS author FROM notes AS n LEFT JOIN authors AS a ON n.author_id = a.id" },
    });
    expect(made.status(), await made.text()).toBe(201);
    await page.goto(`/databases/${instance}/joins`);
    const item = page.getByRole("listitem", { name: "Join notes_authors" });
    await expect(item).toContainText("notes ⋈ authors left");
    await page.getByRole("button", { name: "Edit join notes_authors" }).click();
    const editor = page.getByRole("region", { name: "Edit join notes_authors" });
    await expect(editor.getByRole("table", { name: "Join preview" })).toBeVisible({ timeout: 20_000 });
    await editor.getByRole("tab", { name: "Visual editor" }).click();
    await editor.getByLabel("Join type for authors").selectOption("inner");
    await editor.getByRole("button", { name: "Save changes" }).click();
    const status = editor.getByRole("status").filter({ hasText: "Saved" });
    await expect(status).toHaveText(`✓ Saved notes_authors: GET /v1/${instance}/notes_authors`);
    // Beside its button once the page has settled (the list and the preview re-render after a save, moving both).
    const gap = async () => {
      const [button, note] = await Promise.all([editor.getByRole("button", { name: "Save changes" }).boundingBox(), status.boundingBox()]);
      return Math.abs(note!.y + note!.height / 2 - (button!.y + button!.height / 2));
    };
    await expect.poll(gap, { message: "the saved note sits beside Save changes" }).toBeLessThan(24);
    await expect(item).toContainText("notes ⋈ authors inner");
    await page.screenshot({ path: "/tmp/dash2-shots/joins-1280.png", fullPage: true });
    await expectAxeClean(page, "joins");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "/tmp/dash2-shots/joins-390.png", fullPage: true });
  });
});
