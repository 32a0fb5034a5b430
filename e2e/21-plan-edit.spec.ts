import { expect, test } from "@playwright/test";
import { expectAxeClean, FLOW_VIEWPORTS, shot, signInOrSetUp } from "./helpers";

// The offline planner's draft is reviewed and edited before anything is created: a column renamed, a
// dropdown's options changed, a table removed, an invalid name refused with the field named, then Apply
// creates the edited plan. At desktop and phone widths, light and dark, axe clean.

const PROMPT = "A tool library: tools with a condition (new, good, worn), neighbors with a phone, and loans of tools to neighbors with a due date";

for (const look of FLOW_VIEWPORTS) {
  test(`a planned build is edited before it is applied, at ${look.width} px ${look.theme}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: look.width, height: look.height });
    await page.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), look.theme);
    await signInOrSetUp(page);
    const builder = page.getByRole("region", { name: "AI builder" });
    await builder.getByLabel("Describe your app in a sentence").fill(PROMPT);
    await builder.getByRole("button", { name: "Generate" }).click();
    const preview = builder.getByRole("region", { name: "Plan preview" });
    await expect(preview).toBeVisible();
    await preview.getByRole("button", { name: "Edit plan" }).click();

    const editor = builder.getByRole("region", { name: "Edit plan" });
    await editor.getByLabel("Name of neighbors.phone").fill("mobile");
    await editor.getByLabel("Name of neighbors.phone").blur();
    await editor.getByLabel("Options of tools.condition").fill("new, used");
    await editor.getByLabel("Options of tools.condition").blur();
    await editor.getByLabel("New column of tools").fill("Bad Name");
    await editor.getByRole("button", { name: "Add column" }).first().click();
    await editor.getByRole("button", { name: "Save plan" }).click();
    // The server names the bad column and saves nothing.
    await expect(editor.getByRole("list", { name: "Problems" })).toContainText("tables[0].columns");
    await shot(page, `plan-edit-refused-${look.width}-${look.theme}`);
    await expectAxeClean(page, "plan editor with problems");

    await editor.getByRole("button", { name: "Remove tools.Bad Name" }).click();
    await editor.getByRole("button", { name: "Save plan" }).click();
    await expect(editor).toHaveCount(0);
    await expect(preview.getByRole("article", { name: "Planned table neighbors" }).locator('li[data-column="mobile"]')).toBeVisible();
    await expect(preview.getByRole("article", { name: "Planned table tools" }).getByRole("list", { name: "Options of condition" }).getByRole("listitem")).toHaveText(["new", "used"]);
    await shot(page, `plan-edit-saved-${look.width}-${look.theme}`);
    await expectAxeClean(page, "edited plan preview");

    await preview.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page).toHaveURL(/\/databases\/[a-z0-9_]+/);
    const instance = page.url().match(/\/databases\/([a-z0-9_]+)/)![1];
    const table = await page.request.get(`/api/v1/databases/${instance}/tables/neighbors`);
    expect((await table.json()).columns.map((c: { name: string }) => c.name)).toContain("mobile");
  });
}
