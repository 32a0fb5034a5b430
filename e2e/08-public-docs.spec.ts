import { chromium, expect, type Page, test } from "@playwright/test";
import { E2E_CNAME_TARGET, E2E_DNS_PORT } from "../playwright.config";
import { startDnsServer } from "../tests/domains/dns-server";
import { expectAxeClean, shot, signIn, THEMED_VIEWPORTS, VIEWPORT } from "./helpers";

// Public API docs as the operator (made by 01): the Docs tab's switch, the docs read without signing in, a custom
// domain set and verified against a loopback DNS server (the server's DNS_SERVERS), then the docs opened by that
// host in a browser that resolves it to this machine. Last, an account on the free plan gets the upgrade message.
// The public page folds a list operation's column filters with the dashboard's own plugin, on either address.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const DOMAIN = "docs.example.test";

/** Opens the lanterns list operation: its column filters are folded behind a toggle that reveals them. */
const expectFoldedFilters = async (docs: Page, afterOpen?: () => Promise<void>) => {
  const list = docs.locator("#operations-lanterns-listLanterns");
  await list.locator(".opblock-summary").click();
  await expect(list.locator('tr[data-param-name="_limit"]')).toBeVisible();
  await expect(list.locator('tr[data-param-name="price_lt"]')).toHaveCount(0);
  const toggle = list.getByRole("button", { name: /^Show the \d+ column filters$/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  expect(Number((await toggle.textContent())!.match(/\d+/)![0])).toBeGreaterThan(10);
  await afterOpen?.();
  await toggle.click();
  await expect(list.locator('tr[data-param-name="price_lt"]')).toBeVisible();
  await expect(list.getByRole("button", { name: /^Hide the \d+ column filters$/ })).toHaveAttribute("aria-expanded", "true");
};

test.use({ viewport: VIEWPORT });

test("public docs: switched on, read without a key, served on a verified custom domain", async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  const dns = await startDnsServer(E2E_DNS_PORT);
  try {
    await signIn(page, OWNER);
    const made = await page.request.post("/api/v1/databases", {
      data: { name: "Lantern Shop", tables: [{ name: "lanterns", columns: [{ name: "title", type: "varchar" }, { name: "price", type: "int" }] }] },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { instance } = await made.json();
    const panel = page.getByRole("region", { name: "Public docs" });

    await test.step("the Docs tab: switch the public docs on and get their URL", async () => {
      await page.goto(`/databases/${instance}/docs`);
      // The settings are folded below Swagger.
      await expect(panel).toBeHidden();
      await page.getByText("Public docs and custom domain").click();
      await expect(panel.getByLabel("Public docs")).not.toBeChecked();
      // The switch shows the saved state: it turns on once the server said so.
      await panel.getByLabel("Public docs").click();
      await expect(panel.getByLabel("Public docs")).toBeChecked();
      await expect(panel.getByTestId("public-docs-url")).toHaveText(`${baseURL}/docs/${instance}`);
    });

    await test.step("a reader without a session opens the docs: the live API, branded, no key in it", async () => {
      const reader = await browser.newContext({ viewport: VIEWPORT });
      const docs = await reader.newPage();
      const response = await docs.goto(`/docs/${instance}`);
      expect(response!.status()).toBe(200);
      await expect(docs.getByTestId("docs-title")).toHaveText("Lantern Shop API");
      await expect(docs.locator(".opblock-summary-path").filter({ hasText: /^\/lanterns$/ }).first()).toBeVisible();
      await expect(docs.getByRole("button", { name: "Authorize" })).toBeVisible();
      expect(await docs.content()).not.toMatch(/sk_[A-Za-z0-9]{8}/);
      await expectAxeClean(docs, "public docs");
      await shot(docs, "08-public-docs-page");
      await reader.close();
    });

    await test.step("the public page folds a list operation's column filters, at 1280 and 390 px, light and dark", async () => {
      // Each look in a context of its own, the four side by side (the sweep's way): while one waits for Swagger
      // UI to draw, another is scanned.
      await Promise.all(
        THEMED_VIEWPORTS.map(async (look) => {
          const tag = `${look.width}-${look.theme}`;
          const reader = await browser.newContext({ viewport: { width: look.width, height: look.height } });
          const docs = await reader.newPage();
          await docs.addInitScript((theme) => localStorage.setItem("tabula-theme", theme), look.theme);
          await docs.goto(`/docs/${instance}`);
          await expect(docs.locator("html")).toHaveClass(look.theme);
          await expectFoldedFilters(docs, async () => {
            await docs.locator("#operations-lanterns-listLanterns .tabula-filter-fold").scrollIntoViewIfNeeded();
            await docs.screenshot({ path: `test-results/screens/08-public-docs-folded-${tag}.png` });
            await expectAxeClean(docs, `public docs, list operation folded, ${tag}`);
          });
          await expectAxeClean(docs, `public docs, column filters shown, ${tag}`);
          await reader.close();
        }),
      );
    });

    await test.step("a custom domain: pending with the records to create; Verify says why until DNS is right", async () => {
      await panel.getByLabel("Domain").fill(DOMAIN);
      await panel.getByRole("button", { name: "Save domain" }).click();
      await expect(panel.getByTestId("domain-status")).toHaveText("Pending");
      await expect(panel.getByRole("row", { name: /CNAME/ })).toContainText(E2E_CNAME_TARGET);
      await expect(panel.getByRole("row", { name: /TXT/ })).toContainText(`_tabula-verify.${DOMAIN}`);
      await panel.getByRole("button", { name: "Verify DNS" }).click();
      await expect(panel.getByTestId("domain-error")).toHaveText(`Not verified yet: domain does not exist: ${DOMAIN} has no DNS records (NXDOMAIN)`);
      await shot(page, "08-docs-domain-pending");
    });

    await test.step("with the CNAME and the TXT token in DNS, Verify verifies", async () => {
      const settings = await (await page.request.get(`/api/v1/databases/${instance}/docs`)).json();
      expect(await panel.getByRole("row", { name: /TXT/ }).textContent()).toContain(settings.txt.value);
      dns.set(DOMAIN, { cname: E2E_CNAME_TARGET });
      dns.set(settings.txt.name, { txt: [settings.txt.value] });
      await panel.getByRole("button", { name: "Verify DNS" }).click();
      await expect(panel.getByTestId("domain-status")).toHaveText("Verified");
      await expect(panel.getByTestId("domain-error")).toHaveCount(0);
      await expect(panel.getByRole("link", { name: `https://${DOMAIN}/` })).toBeVisible();
      await shot(page, "08-docs-domain-verified");
    });

    await test.step("a browser that resolves the domain to this server gets the docs at / and nothing else", async () => {
      const port = new URL(baseURL!).port;
      const mapped = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`],
      });
      try {
        const byHost = await (await mapped.newContext({ viewport: VIEWPORT })).newPage();
        const response = await byHost.goto(`http://${DOMAIN}:${port}/`);
        expect(response!.status()).toBe(200);
        await expect(byHost).toHaveTitle("Lantern Shop API docs");
        await expect(byHost.getByTestId("docs-title")).toHaveText("Lantern Shop API");
        await expect(byHost.locator(".opblock-summary-path").filter({ hasText: /^\/lanterns$/ }).first()).toBeVisible();
        await shot(byHost, "08-docs-by-host");
        await expectFoldedFilters(byHost);
        expect((await byHost.goto(`http://${DOMAIN}:${port}/login`))!.status()).toBe(404);
        expect((await byHost.goto(`http://${DOMAIN}:${port}/api/v1/openapi.json`))!.status()).toBe(404);
      } finally {
        await mapped.close();
      }
      expect((await page.request.get(`/api/v1/domains/allowed?domain=${DOMAIN}`)).status()).toBe(200);
    });
  } finally {
    await dns.close();
  }
});

test("a custom domain on the free plan gets the upgrade message", async ({ page, browser }) => {
  await signIn(page, OWNER);
  const who = { email: `free-${Date.now()}@example.com`, password: "correct horse battery" };
  const added = await page.request.post("/api/v1/accounts", { data: who });
  expect(added.status(), await added.text()).toBe(201);
  const context = await browser.newContext({ viewport: VIEWPORT });
  const free = await context.newPage();
  await signIn(free, who);
  const made = await free.request.post("/api/v1/databases", { data: { name: "Free docs", tables: [{ name: "notes", columns: [{ name: "body", type: "text" }] }] } });
  expect(made.status(), await made.text()).toBe(201);
  await free.goto(`/databases/${(await made.json()).instance}/docs`);
  const panel = free.getByRole("region", { name: "Public docs" });
  await free.getByText("Public docs and custom domain").click();
  await panel.getByLabel("Domain").fill("docs.free.example.test");
  await panel.getByRole("button", { name: "Save domain" }).click();
  await expect(panel.getByRole("alert")).toContainText("Your free plan does not include custom domains for the API docs.");
  await expect(panel.getByRole("link", { name: "Open Plan & usage" })).toBeVisible();
  await shot(free, "08-docs-domain-upgrade");
  await context.close();
});
