import { expect, type Locator, type Page } from "@playwright/test";

// What the browser specs share: the viewport, full-page screenshots, signing in, the main navigation.

export const VIEWPORT = { width: 1280, height: 800 };

/** Saves the whole page, the viewport grown to its height so sticky parts are drawn where they belong. */
export const shot = async (page: Page, name: string) => {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > VIEWPORT.height) await page.setViewportSize({ width: VIEWPORT.width, height });
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  if (height > VIEWPORT.height) await page.setViewportSize(VIEWPORT);
};

export const signIn = async (page: Page, who: { email: string; password: string }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/databases$/);
};

export const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** Opens the grid's "Filters and sort" panel unless it is open (this browser remembers the choice). */
export const openFilters = async (page: Page) => {
  const toggle = page.getByRole("button", { name: /^Filters and sort/ });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
};

/** Runs Edit or Delete from a grid row's menu (row actions share one narrow column). */
export const rowAction = async (grid: Locator, id: number, action: "Edit" | "Delete") => {
  await grid.getByRole("button", { name: `Actions for record ${id}`, exact: true }).click();
  await grid.getByRole("menuitem", { name: action, exact: true }).click();
};
