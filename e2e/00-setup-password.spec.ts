import { expect, test } from "@playwright/test";
import { expectAxeClean } from "./helpers";

// The first-run form names a password under 8 characters beside the field and sends nothing; the install stays
// on its first run (01 creates the owner next). At 1280 and 390 px.

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`first-run setup refuses a short password before sending, at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/setup");
    await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
    const signups: string[] = [];
    page.on("request", (r) => r.method() === "POST" && signups.push(r.url()));
    await page.getByLabel("Email").fill("short@example.com");
    await page.getByLabel("Password", { exact: true }).fill("abc12");
    await expect(page.locator("#password-error")).toHaveCount(0);
    // Said as soon as the field is left, and again on submit, which sends nothing.
    await page.getByLabel("Confirm password").fill("abc12");
    await expect(page.locator("#password-error")).toHaveText("The password needs at least 8 characters (it has 5).");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.locator("#password-error")).toHaveText("The password needs at least 8 characters (it has 5).");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-describedby", "password-error");
    await page.screenshot({ path: `/tmp/dash2-shots/setup-short-password-${viewport.width}.png` });
    await expectAxeClean(page, `setup ${viewport.width}`);
    expect(signups).toEqual([]);
    await expect(page).toHaveURL(/\/setup$/);
    // Long enough: the message goes as soon as the field is left.
    await page.getByLabel("Password", { exact: true }).fill("abc12345");
    await page.getByLabel("Confirm password").focus();
    await expect(page.locator("#password-error")).toHaveCount(0);
  });
}
