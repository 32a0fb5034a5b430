import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import axe from "axe-core";
import { type BrowserContext, expect, type Locator, type Page } from "@playwright/test";

// What the browser specs share: the viewport, full-page screenshots, signing in, the main navigation.

export const VIEWPORT = { width: 1280, height: 800 };

/** Saves the whole page, the viewport (of its width) grown to its height so sticky parts are drawn where they belong. */
export const shot = async (page: Page, name: string) => {
  const size = page.viewportSize() ?? VIEWPORT;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  if (height > size.height) await page.setViewportSize(size);
};

/**
 * The owner's session, kept from its first sign-in through the form in this test run: a spec whose subject is
 * not signing in starts from it (one page load) instead of the form (three). Other accounts always use the form,
 * so their sessions stay apart (several browsers of one member are several sessions).
 */
let ownerCookies: Awaited<ReturnType<BrowserContext["cookies"]>> | undefined;

/** Opens the databases page with the owner's kept session; false (and no cookies left) when there is none or it has ended. */
const resumeOwner = async (page: Page) => {
  if (!ownerCookies) return false;
  await page.context().addCookies(ownerCookies);
  const account = await page.request.get("/api/v1/account");
  if (account.status() === 200 && ((await account.json()) as { email?: string }).email === OWNER.email) {
    await page.goto("/databases");
    await expect(page).toHaveURL(/\/databases$/);
    return true;
  }
  ownerCookies = undefined;
  await page.context().clearCookies();
  return false;
};

const keepOwner = async (page: Page, email: string) => {
  if (email === OWNER.email) ownerCookies = await page.context().cookies();
};

/** Signs in; the owner resumes its kept session unless `throughForm` (the sign-in itself is what a test needs). */
export const signIn = async (page: Page, who: { email: string; password: string }, { throughForm = false } = {}) => {
  if (!throughForm && who.email === OWNER.email && who.password === OWNER.password && (await resumeOwner(page))) return;
  await signInThroughForm(page, who);
  await keepOwner(page, who.email);
};

const signInThroughForm = async (page: Page, who: { email: string; password: string }) => {
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

/** Runs one of the data toolbar's actions: a button at desktop widths, an item of the "More" menu on a phone. */
export const gridAction = async (page: Page, name: "Export CSV" | "Import CSV" | "Recently deleted") => {
  if (page.viewportSize()!.width >= 768) return page.getByRole("button", { name, exact: true }).click();
  await page.getByRole("button", { name: "More", exact: true }).click();
  await page.getByRole("menu", { name: "More actions" }).getByRole("menuitem", { name, exact: true }).click();
};

/** Runs Edit or Delete from a grid row's menu (row actions share one narrow column). */
export const rowAction = async (grid: Locator, id: number, action: "Edit" | "Delete") => {
  await grid.getByRole("button", { name: `Actions for record ${id}`, exact: true }).click();
  await grid.getByRole("menuitem", { name: action, exact: true }).click();
};

/** The four looks a dashboard spec checks: desktop and phone widths, light and dark. */
export const THEMED_VIEWPORTS = [
  { width: 1280, height: 800, theme: "light" },
  { width: 1280, height: 800, theme: "dark" },
  { width: 390, height: 844, theme: "light" },
  { width: 390, height: 844, theme: "dark" },
] as const;

/**
 * The two looks a flow spec runs its steps in: each width once and each theme once (desktop light, phone dark).
 * The a11y sweep (09-shell-a11y) loads every page in all four looks, and specs that check a state's look (a dialog,
 * a file view) shoot and scan it in all four.
 */
export const FLOW_VIEWPORTS = THEMED_VIEWPORTS.filter((l) => (l.width === 1280 && l.theme === "light") || (l.width === 390 && l.theme === "dark"));

/**
 * The axe rules whose impact is fixed at minor or moderate: they can never report a serious or critical violation, so
 * the scan skips them (axe gives a rule's fixed impact to every check it runs; the other rules take their checks').
 */
const MINOR_RULES = (() => {
  const rules = (axe as unknown as { _audit?: { rules: { id: string; impact?: string }[] } })._audit?.rules;
  if (!rules?.length) throw new Error("axe-core no longer lists its rules in _audit: keep every rule on instead");
  return rules.filter((r) => r.impact === "minor" || r.impact === "moderate").map((r) => r.id);
})();

/** axe-core's minified build, put into a page's frames by the scan (580 KB; axe.source holds the 1.3 MB unminified one). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The run options: only the rules that can be serious or critical, and only violations listed node by node. */
const AXE_OPTIONS = { rules: Object.fromEntries(MINOR_RULES.map((id) => [id, { enabled: false }])), resultTypes: ["violations"] };

/**
 * Axe's serious and critical violations on the settled page. A client navigation may swap the head's title a moment
 * after the content shows, and a button whose colours are mid-transition (enabled a moment ago) has neither its old
 * nor its new contrast: the scan waits for a title and for running CSS transitions to end. A page that never gets a
 * title still fails.
 *
 * axe runs in the page itself: put once into each frame of the document (a later scan of the same document reuses
 * it) and told to answer its parent whatever the frame's origin, then run from the top frame, which gathers every
 * frame's results. @axe-core/playwright would put its 1.3 MB unminified build into every frame again at every scan:
 * this way a scan takes 11% to 62% of its time (docs/testing.md), with the same verdicts as its default mode.
 */
export const seriousAxeViolations = async (page: Page, where: string) => {
  await expect.poll(() => page.title(), { message: `${where}: the page has a title` }).not.toBe("");
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"));
  for (const frame of page.frames()) {
    if (await frame.evaluate(() => "axe" in window)) continue;
    await frame.evaluate(AXE_SOURCE);
    await frame.evaluate(() => (window as unknown as { axe: typeof axe }).axe.configure({ allowedOrigins: ["<unsafe_all_origins>"] }));
  }
  const { violations } = await page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options as axe.RunOptions), AXE_OPTIONS);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
};

/** Fails on serious or critical axe violations, naming each with its first elements. */
export const expectAxeClean = async (page: Page, where: string) => {
  const bad = (await seriousAxeViolations(page, where)).map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  expect(bad, `axe on ${where}`).toEqual([]);
};

const OWNER = { email: "owner@example.com", password: "correct horse battery" };

/** The owner made by 01, or (this spec run alone on a fresh install) made here through the first-run setup. */
export const signInOrSetUp = async (page: Page, { throughForm = false } = {}) => {
  if (!throughForm && (await resumeOwner(page))) return;
  await page.goto("/");
  await page.waitForURL(/\/(setup|login|databases)$/);
  if (!page.url().endsWith("/setup")) return signIn(page, OWNER, { throughForm: true });
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
  await page.getByLabel("Confirm password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/databases$/);
  await keepOwner(page, OWNER.email);
};
