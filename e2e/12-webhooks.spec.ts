import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { shot, signIn, VIEWPORT } from "./helpers";

// Change events end to end as the operator (made by 01): the data grid follows the feed (Live, then Pause), and
// the Webhooks tab adds an endpoint on loopback, sends a test event, shows a real delivery's request and
// response, and redelivers it.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };

test.use({ viewport: VIEWPORT });

test("change events: the grid updates live and pauses; a webhook is added, tested, delivered and redelivered", async ({ page }) => {
  test.setTimeout(120_000);
  const received: { id: string; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c)).on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), body });
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await signIn(page, OWNER);

  let instance = "";
  let key = "";
  await test.step("a database with a todos table, and a key for writes from outside the page", async () => {
    const made = await page.request.post("/api/v1/databases", { data: { name: "Live todos", tables: [{ name: "todos", columns: [{ name: "title", type: "varchar" }, { name: "done", type: "boolean" }] }] } });
    expect(made.status(), await made.text()).toBe(201);
    instance = (await made.json()).instance;
    const created = await page.request.post("/api/v1/keys", { data: { name: "e2e writer", database: instance } });
    key = (await created.json()).key;
  });

  const write = (title: string) => page.request.post(`/v1/${instance}/todos`, { headers: { "x-api-key": key }, data: { title, done: false } });

  await test.step("the grid shows Live and a row written elsewhere appears by itself", async () => {
    await page.goto(`/databases/${instance}/data`);
    await expect(page.getByRole("status", { name: "Live updates: Live" })).toBeVisible({ timeout: 15_000 });
    expect((await write("Written by another client")).status()).toBe(201);
    await expect(page.getByRole("cell", { name: "Written by another client" })).toBeVisible({ timeout: 10_000 });
    await shot(page, "12-grid-live");
  });

  await test.step("Pause stops the updates; Resume shows the rows written meanwhile", async () => {
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByRole("status", { name: "Live updates: Paused" })).toBeVisible();
    await write("Written while paused");
    await page.waitForTimeout(1500);
    await expect(page.getByRole("cell", { name: "Written while paused" })).toHaveCount(0);
    await shot(page, "12-grid-paused");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByRole("status", { name: "Live updates: Live" })).toBeVisible({ timeout: 15_000 });
    await write("Written after resume");
    await expect(page.getByRole("cell", { name: "Written after resume" })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("cell", { name: "Written while paused" })).toBeVisible();
  });

  await test.step("the Webhooks tab: add an endpoint and send a test event", async () => {
    await page.getByRole("navigation", { name: "Database sections" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(new RegExp(`/databases/${instance}/webhooks$`));
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByRole("checkbox", { name: "todos" }).check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const card = page.getByRole("list", { name: "Webhooks" }).getByRole("listitem");
    await expect(card).toContainText(url);
    await expect(card).toContainText("Tables: todos");
    await card.getByRole("button", { name: "Send test event" }).click();
    await expect(card.getByRole("status")).toContainText("Test: delivered (HTTP 200");
    expect(received.at(-1)!.id).toMatch(/^test_/);
  });

  await test.step("a real change is delivered; its request and response are shown; Redeliver sends it again", async () => {
    await write("Delivered by webhook");
    const log = page.getByRole("list", { name: "Deliveries" });
    const row = log.getByRole("listitem").filter({ hasText: "todos.insert" }).first();
    await expect(row).toContainText("delivered", { timeout: 15_000 });
    await row.getByRole("button", { name: "Request & response" }).click();
    await expect(row.getByLabel("Request")).toContainText("webhook-signature: v1,");
    await expect(row.getByLabel("Request")).toContainText("Delivered by webhook");
    await expect(row.getByLabel("Response")).toContainText('HTTP 200');
    await shot(page, "12-webhooks");
    const before = received.length;
    await row.getByRole("button", { name: "Redeliver" }).click();
    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThan(before);
    expect(received.at(-1)!.body).toContain("Delivered by webhook");
  });
  receiver.close();
});
