import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, shot, signInOrSetUp } from "./helpers";

// Smaller frictions of building: a lossy type change offers "convert anyway, set these N rows to NULL" as an
// explicit choice; removing an option rows hold asks what they become; the record form speaks the builder's words (Yes/No, "reference to authors"); the policy
// helper offers only references to the users table as owner columns; an invite link's sign-up form starts with
// the invited address; on a phone the AI notice folds, so the databases list stays near the top.

const makeDatabase = async (page: Page, name: string) => {
  const made = await page.request.post("/api/v1/databases", {
    data: {
      name,
      tables: [
        { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
        { name: "authors", columns: [{ name: "name", type: "varchar" }] },
        {
          name: "items",
          columns: [
            { name: "code", type: "varchar" },
            { name: "in_stock", type: "boolean", default: true },
            { name: "author_id", type: "reference", references: "authors" },
            { name: "owner_id", type: "reference", references: "users" },
            { name: "title", type: "varchar" },
          ],
        },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `seed ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  expect((await page.request.post(`/v1/${instance}/items`, { headers, data: [{ code: "12" }, { code: "abc" }, { code: "x" }] })).status()).toBe(201);
  const codes = async () => ((await (await page.request.get(`/v1/${instance}/items?_sort=id`, { headers })).json()) as { code: unknown }[]).map((r) => r.code);
  return { instance, codes };
};

for (const v of FLOW_VIEWPORTS) {
  test.describe(`at ${v.width} px, ${v.theme}`, () => {
    test.use({ viewport: { width: v.width, height: v.height }, colorScheme: v.theme });
    const tag = `${v.width}-${v.theme}`;

    test.beforeEach(async ({ page }) => {
      await page.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), v.theme);
      await signInOrSetUp(page);
    });

    test("a lossy type change offers to convert anyway, setting the rows that do not fit to NULL", async ({ page }) => {
      test.setTimeout(90_000);
      const { instance, codes } = await makeDatabase(page, `Lossy ${tag}`);
      await page.goto(`/databases/${instance}/schema?table=items`);
      await page.getByRole("button", { name: "Edit column code" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit column items.code" });
      await dialog.getByLabel("Type", { exact: true }).selectOption("int");
      await dialog.getByRole("button", { name: "Save column" }).click();
      const offer = dialog.getByRole("region", { name: "Lossy change" });
      await expect(offer).toContainText("2 rows hold values the new definition cannot keep");
      expect(await codes()).toEqual(["12", "abc", "x"]);
      await shot(page, `24-convert-anyway-${tag}`);
      await expectAxeClean(page, "lossy change offer");
      await offer.getByRole("button", { name: "Convert anyway, set these 2 rows to NULL" }).click();
      await expect(dialog).toBeHidden();
      expect(await codes()).toEqual([12, null, null]);
    });

    test("removing an option rows hold asks what those rows become, readable in both themes", async ({ page }) => {
      test.setTimeout(90_000);
      const made = await page.request.post("/api/v1/databases", {
        data: { name: `Options ${tag}`, tables: [{ name: "posts", columns: [{ name: "status", type: "dropdown", options: ["draft", "live"] }] }] },
      });
      expect(made.status(), await made.text()).toBe(201);
      const instance = (await made.json()).instance as string;
      const key = (await (await page.request.post("/api/v1/keys", { data: { name: `seed ${instance}`, database: instance } })).json()).key as string;
      expect((await page.request.post(`/v1/${instance}/posts`, { headers: { "x-api-key": key }, data: [{ status: "live" }] })).status()).toBe(201);
      await page.goto(`/databases/${instance}/schema?table=posts`);
      await page.getByRole("button", { name: "Edit column status" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit column posts.status" });
      await dialog.getByRole("button", { name: "Remove option live" }).click();
      await dialog.getByRole("button", { name: "Save column" }).click();
      await expect(dialog.getByText('1 row holds "live", which this change removes.')).toBeVisible();
      await expect(dialog.getByLabel("Rows holding live become")).toBeVisible();
      await shot(page, `24-removed-options-${tag}`);
      await expectAxeClean(page, "removed options");
    });

    test("the record form says Yes/No and reference to authors; the policy helper offers only references to users", async ({ page }) => {
      test.setTimeout(90_000);
      const { instance } = await makeDatabase(page, `Words ${tag}`);
      await page.goto(`/databases/${instance}/data?table=items`);
      await page.getByRole("button", { name: "Add record" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a record to items" });
      const form = dialog.locator("form");
      await expect(form).toContainText("in_stock Yes/No");
      await expect(form).toContainText("author_id reference to authors");
      await expect(form).not.toContainText("TINYINT");
      await expect(form).not.toContainText("BIGINT");
      await expect(dialog.getByLabel(/^in_stock/).locator("option")).toHaveText(["Default (Yes)", "Yes", "No"]);
      await shot(page, `24-record-form-words-${tag}`);
      await expectAxeClean(page, "record form");
      await dialog.getByRole("button", { name: "Cancel" }).click();

      await page.goto(`/databases/${instance}/auth`);
      await page.getByLabel("Enable database auth").check();
      await page.getByRole("button", { name: "Save auth settings" }).click();
      await expect(page.getByText("Saved.")).toBeVisible();
      await page.getByLabel("Table", { exact: true }).first().selectOption("items");
      const owner = page.getByLabel("Owner column (for presets)");
      await expect(owner).toHaveValue("owner_id");
      await expect(owner.locator("option")).toHaveText([/^None/, "owner_id (reference to users)"]);
      await shot(page, `24-policy-owner-${tag}`);
      await expectAxeClean(page, "policy helper");
    });

    test("an invite link's sign-up form starts with the invited address", async ({ page, browser }) => {
      test.setTimeout(60_000);
      const made = await page.request.post("/api/v1/team/invites", { data: { role: "viewer", email: `invited-${tag}@example.com` } });
      expect(made.status(), await made.text()).toBe(201);
      const { token } = (await made.json()) as { token: string };
      const guest = await browser.newContext({ viewport: { width: v.width, height: v.height }, colorScheme: v.theme });
      const visitor = await guest.newPage();
      await visitor.goto(`/invite/${token}`);
      await expect(visitor.getByLabel("Email")).toHaveValue(`invited-${tag}@example.com`);
      await shot(visitor, `24-invite-prefilled-${tag}`);
      await expectAxeClean(visitor, "invite page");
      await guest.close();
    });

    test("the AI notice leaves the databases list near the top", async ({ page }) => {
      await page.goto("/databases");
      const notice = page.getByRole("region", { name: "No AI model configured" });
      await expect(notice).toBeVisible();
      const height = (await notice.boundingBox())!.height;
      console.log(`AI notice height ${tag}: ${Math.round(height)} px`);
      if (v.width < 768) {
        expect(height).toBeLessThan(140);
        for (const copy of [notice.getByText("It cannot guess").first(), notice.getByText("It cannot guess").last()]) await expect(copy).toBeHidden();
        await shot(page, `24-databases-ai-notice-folded-${tag}`);
        await notice.getByText("What it can and cannot do").click();
        await expect(notice.getByText("It cannot guess").last()).toBeVisible();
      } else {
        await expect(notice.getByText("It cannot guess").first()).toBeVisible();
      }
      await shot(page, `24-databases-ai-notice-${tag}`);
      await expectAxeClean(page, "databases page");
    });
  });
}
