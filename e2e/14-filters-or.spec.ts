import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, openFilters, shot, signInOrSetUp } from "./helpers";

// OR groups and per-row verdicts, as the owner made by 01, at 1280 px light and 390 px dark: OR groups in the grid's
// filter bar (applied, in the URL and in a saved view), the API Docs list operation with its per-column filters
// folded behind a toggle, and "Test as user" filtered and paged with per-row verdicts. axe clean on each page.

/** Books 01..40 (price 10..49, every fourth a draft); users A and B; A owns notes 1..30 (rank = n), B five more. */
const makeDatabase = async (page: Page, name: string) => {
  const made = await page.request.post("/api/v1/databases", {
    data: {
      name,
      tables: [
        {
          name: "books",
          columns: [
            { name: "title", type: "varchar", length: 100, nullable: false },
            { name: "price", type: "decimal", precision: 10, scale: 2 },
            { name: "status", type: "dropdown", options: ["draft", "live"] },
          ],
        },
        { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
        { name: "notes", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "rank", type: "int" }, { name: "owner_id", type: "bigint", default: "auth.id" }] },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `or ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  const post = async (path: string, data: unknown) => {
    const reply = await page.request.post(`/v1/${instance}/${path}`, { headers, data });
    expect(reply.status(), await reply.text()).toBe(201);
    return reply.json();
  };
  await post("books", Array.from({ length: 40 }, (_, i) => ({ title: `Book ${String(i + 1).padStart(2, "0")}`, price: 10 + i, status: i % 4 === 0 ? "draft" : "live" })));
  const auth = await page.request.put(`/api/v1/databases/${instance}/auth`, { data: { enabled: true, users_table: "users", login_column: "email", password_column: "password" } });
  expect(auth.status(), await auth.text()).toBe(200);
  expect((await page.request.put(`/api/v1/databases/${instance}/tables/notes/policies`, { data: { select: "owner_id = auth.id", update: "owner_id = auth.id and rank < 29" } })).status()).toBe(200);
  const [a, b] = await post("users", [{ email: "ann@example.com", password: "ann-password-1" }, { email: "bob@example.com", password: "bob-password-2" }]);
  await post("notes", [
    ...Array.from({ length: 30 }, (_, i) => ({ title: `Ann ${i + 1}`, rank: i + 1, owner_id: a.id })),
    ...Array.from({ length: 5 }, (_, i) => ({ title: `Bob ${i + 1}`, rank: 100 + i, owner_id: b.id })),
  ]);
  return { instance, ann: a.id as number };
};

const titles = (page: Page) => page.getByRole("table", { name: "Records of books" }).locator('tbody td[data-column="title"]');

for (const v of FLOW_VIEWPORTS) {
  test.describe(`at ${v.width} px, ${v.theme}`, () => {
    test.use({ viewport: { width: v.width, height: v.height }, colorScheme: v.theme });
    const tag = `${v.width}-${v.theme}`;

    test("OR groups in the filter bar, folded Swagger filters, test as user filtered and paged", async ({ page }) => {
      test.setTimeout(180_000);
      await page.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), v.theme);
      await signInOrSetUp(page);
      const { instance, ann } = await makeDatabase(page, `Or ${tag}`);

      await test.step("the filter bar: a filter AND an OR group, applied, in the URL, kept by a saved view", async () => {
        await page.goto(`/databases/${instance}/data?table=books`);
        await openFilters(page);
        await page.getByRole("button", { name: "+ Add filter" }).click();
        await page.getByLabel("Filter column").first().selectOption("status");
        await page.getByLabel("Value for status").selectOption("live");
        await page.getByRole("button", { name: "+ Add OR group" }).click();
        const group = page.getByRole("group", { name: "OR group 1" });
        await expect(group.getByLabel("Filter column")).toHaveCount(2);
        await group.getByLabel("Filter column").nth(0).selectOption("price");
        await group.getByLabel("Operator").nth(0).selectOption("lt");
        await group.getByLabel("Value for price_lt").fill("13");
        await group.getByLabel("Filter column").nth(1).selectOption("title");
        await group.getByLabel("Value for title").fill("Book 40");
        await page.getByRole("button", { name: "Apply" }).click();
        // status = live AND (price < 13 OR title = Book 40): Book 01 is a draft; 02, 03 and 40 are live.
        await expect(titles(page)).toHaveText(["Book 02", "Book 03", "Book 40"]);
        expect(decodeURIComponent(new URL(page.url()).searchParams.get("q")!)).toContain("status=live&_or=price_lt=13&title=Book%2040");
        await expect(page.getByTestId("query-preview")).toContainText("_or=price_lt%3D13%26title%3DBook%2520");
        await expect(page.getByRole("button", { name: /^Filters and sort\s*2$/ })).toBeVisible();
        await shot(page, `i27-or-group-${tag}`);
        await expectAxeClean(page, `filter bar ${tag}`);

        await page.getByRole("button", { name: "Save view" }).click();
        await page.getByLabel("View name").fill("Live and cheap or last");
        await page.getByRole("form", { name: "Save this view" }).getByRole("button", { name: "Save" }).click();
        await expect(page.getByLabel("Saved view")).toHaveValue(/\d+/);
        await page.goto(`/databases/${instance}/data?table=books`);
        await expect(titles(page)).toHaveCount(25);
        await page.getByLabel("Saved view").selectOption({ label: "Live and cheap or last" });
        await expect(titles(page)).toHaveText(["Book 02", "Book 03", "Book 40"]);
        await openFilters(page);
        await expect(page.getByRole("group", { name: "OR group 1" }).getByLabel("Value for price_lt")).toHaveValue("13");
        // Removing the group widens the read again.
        await page.getByRole("button", { name: "Remove group 1" }).click();
        await page.getByRole("button", { name: "Apply" }).click();
        await expect(titles(page)).toHaveCount(25);
        expect(new URL(page.url()).searchParams.get("q")).not.toContain("_or");
      });

      await test.step("the API Docs list operation: common parameters shown, per-column filters behind a toggle", async () => {
        await page.goto(`/databases/${instance}/docs`);
        const list = page.locator("#operations-books-listBooks");
        await expect(list).toBeVisible({ timeout: 20_000 });
        await list.locator(".opblock-summary").click();
        await expect(list.locator('tr[data-param-name="_limit"]')).toBeVisible();
        await expect(list.locator('tr[data-param-name="_or"]')).toBeVisible();
        await expect(list.locator('tr[data-param-name="price_lt"]')).toHaveCount(0);
        const toggle = list.getByRole("button", { name: /^Show the \d+ column filters$/ });
        await expect(toggle).toHaveAttribute("aria-expanded", "false");
        const count = Number((await toggle.textContent())!.match(/\d+/)![0]);
        expect(count).toBeGreaterThan(20);
        const common = await list.locator("tr[data-param-name]").count();
        await list.locator('tr[data-param-name="_or"]').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `test-results/screens/i27-swagger-list-${tag}.png` });
        await expectAxeClean(page, `docs ${tag}`);
        await toggle.click();
        await expect(list.locator('tr[data-param-name="price_lt"]')).toBeVisible();
        await expect(list.locator("tr[data-param-name]")).toHaveCount(common + count);
        await list.getByRole("button", { name: /^Hide the \d+ column filters$/ }).click();
        await expect(list.locator('tr[data-param-name="price_lt"]')).toHaveCount(0);
      });

      await test.step("test as user: filtered and paged through the data API, verdicts for the page shown", async () => {
        await page.goto(`/databases/${instance}/auth`);
        await page.locator("#test-user").selectOption(String(ann));
        await page.locator("#test-table").selectOption("notes");
        await page.getByRole("button", { name: "Show what this user gets" }).click();
        const result = page.getByTestId("test-as-user-result");
        await expect(result).toContainText("30 visible row(s)");
        await expect(result.getByRole("navigation", { name: "Pages" })).toContainText("Showing 1–25 of 30");
        await result.getByRole("button", { name: "Next" }).click();
        await expect(result.getByRole("navigation", { name: "Pages" })).toContainText("Showing 26–30 of 30");
        await expect(result.locator("tbody tr")).toHaveCount(5);
        await expect(result).not.toContainText("Bob");
        // rank < 29 may be updated: Ann 26..28 yes, 29 and 30 no, verdicts for this second page.
        const update = (row: number) => result.locator("tbody tr").nth(row).locator("td:nth-last-child(2)");
        await expect(update(2)).toHaveText("✓ allowed");
        await expect(update(3)).toHaveText("✗ 403");

        const filters = page.getByTestId("test-as-user-filters");
        await filters.getByRole("button", { name: "+ Add filter" }).click();
        await filters.getByLabel("Filter column").first().selectOption("rank");
        await filters.getByLabel("Operator").first().selectOption("gte");
        await filters.getByLabel("Value for rank_gte").fill("27");
        await filters.getByRole("button", { name: "+ Add OR group" }).click();
        const group = filters.getByRole("group", { name: "OR group 1" });
        await group.getByLabel("Filter column").nth(0).selectOption("title");
        await group.getByLabel("Value for title").nth(0).fill("Ann 28");
        await group.getByLabel("Filter column").nth(1).selectOption("title");
        await group.getByLabel("Value for title").nth(1).fill("Bob 1");
        await filters.getByRole("button", { name: "Apply" }).click();
        // rank >= 27 AND (title = Ann 28 OR title = Bob 1): Bob's row stays hidden from Ann.
        await expect(result).toContainText("1 visible row(s)");
        await expect(result.locator("tbody tr")).toHaveCount(1);
        await expect(result.locator("tbody tr").first()).toContainText("Ann 28");
        await expect(update(0)).toHaveText("✓ allowed");
        await page.getByRole("region", { name: "Test as user" }).screenshot({ path: `test-results/screens/i27-test-as-user-${tag}.png` });
        await expectAxeClean(page, `test as user ${tag}`);
      });
    });
  });
}
