import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, openFilters, shot, signInOrSetUp, THEMED_VIEWPORTS } from "./helpers";

// A filter on a reference column picks the referenced row by name with the record form's search picker, sends
// its id, and names the row again when the filter comes back from the page URL: at 1280 and 390 px, light and dark.

const rows = (page: Page) => page.getByRole("listbox", { name: "Rows of authors" }).getByRole("option");
const titles = (page: Page) => page.getByRole("table", { name: "Records of books" }).locator('tbody td[data-column="title"]');

test("a reference filter picks the row by name and sends its id", async ({ page }) => {
  test.setTimeout(90_000);
  await signInOrSetUp(page);
  const made = await page.request.post("/api/v1/databases", {
    data: {
      name: "Reference filters",
      tables: [
        { name: "authors", columns: [{ name: "name", type: "varchar", length: 80, nullable: false, unique: true }] },
        { name: "books", columns: [{ name: "title", type: "varchar", length: 80, nullable: false }, { name: "author_id", type: "reference", references: "authors" }] },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `filters ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  const authors = await page.request.post(`/v1/${instance}/authors`, { headers, data: [{ name: "Ursula Le Guin" }, { name: "Ted Chiang" }] });
  expect(authors.status()).toBe(201);
  const [ursula, ted] = (await authors.json()) as { id: number }[];
  const books = [
    { title: "The Dispossessed", author_id: ursula.id },
    { title: "Exhalation", author_id: ted.id },
    { title: "Stories of Your Life", author_id: ted.id },
  ];
  expect((await page.request.post(`/v1/${instance}/books`, { headers, data: books })).status()).toBe(201);

  await page.goto(`/databases/${instance}/data?table=books`);
  await expect(titles(page)).toHaveCount(3);
  await openFilters(page);
  await page.getByRole("button", { name: "+ Add filter" }).click();
  await page.getByLabel("Filter column").selectOption("author_id");
  const picker = page.getByRole("combobox", { name: "Value for author_id" });
  await picker.fill("chi");
  await expect(rows(page)).toHaveText([/Ted Chiang/]);
  await picker.press("ArrowDown");
  await picker.press("Enter");
  await expect(picker).toHaveValue("Ted Chiang");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("query-preview")).toContainText(`books?author_id=${ted.id}&`);
  await expect(titles(page)).toHaveText(["Exhalation", "Stories of Your Life"]);

  // ≠ keeps the picker; "is one of" takes typed ids as before.
  await page.getByLabel("Operator").selectOption("ne");
  await page.getByRole("combobox", { name: "Value for author_id_ne" }).fill("ursula");
  await rows(page).filter({ hasText: "Ursula Le Guin" }).click();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("query-preview")).toContainText(`books?author_id_ne=${ursula.id}&`);
  await expect(titles(page)).toHaveText(["Exhalation", "Stories of Your Life"]);
  await page.getByLabel("Operator").selectOption("in");
  await expect(page.getByRole("textbox", { name: "Value for author_id_in" })).toBeVisible();

  // The filter read back from a link names its row again; every look is checked there.
  const link = `/databases/${instance}/data?table=books&q=${encodeURIComponent(`author_id=${ted.id}&_limit=25&_offset=0`)}`;
  for (const look of THEMED_VIEWPORTS) {
    await page.setViewportSize({ width: look.width, height: look.height });
    await page.emulateMedia({ colorScheme: look.theme });
    await page.evaluate((theme) => localStorage.setItem("tabula-theme", theme), look.theme);
    await page.goto(link);
    if (look.theme === "dark") await expect(page.locator("html")).toHaveClass(/dark/);
    else await expect(page.locator("html")).not.toHaveClass(/dark/);
    await expect(page.getByRole("combobox", { name: "Value for author_id" })).toHaveValue("Ted Chiang");
    await expect(titles(page)).toHaveText(["Exhalation", "Stories of Your Life"]);
    await page.getByRole("combobox", { name: "Value for author_id" }).fill("");
    await page.getByRole("combobox", { name: "Value for author_id" }).pressSequentially("Le");
    await expect(rows(page)).toHaveText([/Ursula Le Guin/]);
    await expectAxeClean(page, `reference filter ${look.width} ${look.theme}`);
    await shot(page, `200-reference-filter-${look.width}-${look.theme}`);
  }
});
