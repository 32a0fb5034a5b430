import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean, signInOrSetUp } from "./helpers";

// Dropdown options in the schema editor: removing one option and adding another never renames rows. Rows
// holding a removed option are counted first and the dialog asks what they become; "Rename option" is how
// rows follow a new name.

const makeDatabase = async (page: Page) => {
  const made = await page.request.post("/api/v1/databases", {
    data: { name: "Options", tables: [{ name: "products", columns: [{ name: "title", type: "varchar" }, { name: "status", type: "dropdown", options: ["active", "archived"] }] }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `options ${instance}`, database: instance } })).json()).key as string;
  const headers = { "x-api-key": key };
  const rows = Array.from({ length: 8 }, (_, i) => ({ title: `P${i + 1}`, status: i < 5 ? "archived" : "active" }));
  expect((await page.request.post(`/v1/${instance}/products`, { headers, data: rows })).status()).toBe(201);
  return { instance, headers };
};

test.use({ viewport: { width: 1280, height: 800 } });

test("a removed option is counted and asked about; Rename option renames the rows", async ({ page }) => {
  test.setTimeout(120_000);
  await signInOrSetUp(page);
  const { instance, headers } = await makeDatabase(page);
  const statuses = async () => ((await (await page.request.get(`/v1/${instance}/products?_sort=id`, { headers })).json()) as { status: string | null }[]).map((r) => r.status);
  const options = async () => {
    const table = await (await page.request.get(`/api/v1/databases/${instance}/tables/products`)).json();
    return (table.columns as { name: string; options?: string[] }[]).find((c) => c.name === "status")?.options;
  };
  const archived = ["archived", "archived", "archived", "archived", "archived", "active", "active", "active"];
  await page.goto(`/databases/${instance}/schema?table=products`);
  const dialog = page.getByRole("dialog", { name: "Edit column products.status" });

  await test.step("remove archived and add discontinued: the count is shown and nothing is renamed", async () => {
    await page.getByRole("button", { name: "Edit column status" }).click();
    await dialog.getByRole("button", { name: "Remove option archived" }).click();
    await dialog.getByPlaceholder("Add options").fill("discontinued");
    await dialog.getByPlaceholder("Add options").press("Enter");
    await dialog.getByRole("button", { name: "Save column" }).click();
    await expect(dialog.getByRole("alert")).toContainText('5 rows hold "archived"');
    await expect(dialog.getByLabel("Rows holding archived become")).toHaveValue("");
    await page.screenshot({ path: "test-results/screens/options-count-1280.png" });
    await expectAxeClean(page, "column dialog asking about a removed option");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "test-results/screens/options-count-390.png" });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await statuses()).toEqual(archived);
    expect(await options()).toEqual(["active", "archived"]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step("Rename option: the rows follow the new name", async () => {
    await page.getByRole("button", { name: "Edit column status" }).click();
    await dialog.getByRole("button", { name: "Rename option archived" }).click();
    await dialog.getByLabel("New name for option archived").fill("discontinued");
    await dialog.getByLabel("New name for option archived").press("Enter");
    await expect(dialog.getByRole("list", { name: "Options" }).getByRole("listitem")).toHaveText([/^active/, /^discontinued/]);
    await page.screenshot({ path: "test-results/screens/options-renamed-1280.png" });
    await dialog.getByRole("button", { name: "Save column" }).click();
    await expect(dialog).toBeHidden();
    expect(await statuses()).toEqual(archived.map((s) => (s === "archived" ? "discontinued" : s)));
    expect(await options()).toEqual(["active", "discontinued"]);
  });

  await test.step("answering the question: the rows of a removed option move to the option chosen", async () => {
    await page.getByRole("button", { name: "Edit column status" }).click();
    await dialog.getByRole("button", { name: "Remove option discontinued" }).click();
    await dialog.getByPlaceholder("Add options").fill("retired");
    await dialog.getByPlaceholder("Add options").press("Enter");
    await dialog.getByRole("button", { name: "Save column" }).click();
    await expect(dialog.getByRole("alert")).toContainText('5 rows hold "discontinued"');
    await dialog.getByLabel("Rows holding discontinued become").selectOption("active");
    await dialog.getByRole("button", { name: "Save column" }).click();
    await expect(dialog).toBeHidden();
    expect(await statuses()).toEqual(Array(8).fill("active"));
    expect(await options()).toEqual(["active", "retired"]);
  });
});
