import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { expectAxeClean, shot, signInOrSetUp } from "./helpers";

// The deliveries log lists every attempt with its status and response body: a first attempt answered 503 stays
// listed after the retry (5 s later) succeeds; a test event is labelled as one.

test.use({ viewport: { width: 1280, height: 800 } });

test("the deliveries log keeps each attempt and labels test events", async ({ page }) => {
  test.setTimeout(60_000);
  let calls = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const isTest = String(req.headers["webhook-id"]).startsWith("test_");
      const first = !isTest && calls++ === 0;
      res.writeHead(first ? 503 : 200, { "content-type": "text/plain" }).end(first ? "busy, try later" : isTest ? "test seen" : "got it");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await signInOrSetUp(page);
  const made = await page.request.post("/api/v1/databases", { data: { name: "Webhook attempts", tables: [{ name: "orders", columns: [{ name: "total", type: "int" }] }] } });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  expect((await page.request.post(`/api/v1/databases/${instance}/webhooks`, { data: { url } })).status()).toBe(201);
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `attempts ${instance}`, database: instance } })).json()).key as string;
  expect((await page.request.post(`/v1/${instance}/orders`, { headers: { "x-api-key": key }, data: { total: 7 } })).status()).toBe(201);

  await page.goto(`/databases/${instance}/webhooks`);
  const log = page.getByRole("list", { name: "Deliveries" });
  const row = log.getByRole("listitem").filter({ hasText: "orders.insert" });
  await expect(row.getByText("delivered", { exact: true })).toBeVisible({ timeout: 20_000 });
  await row.getByRole("button", { name: "Request & response" }).click();
  const attempts = row.getByRole("list", { name: "Attempts" }).getByRole("listitem");
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toContainText("failed");
  await expect(attempts.nth(0)).toContainText("Attempt 1");
  await expect(attempts.nth(0)).toContainText("HTTP 503");
  await expect(row.getByLabel("Answer to attempt 1")).toHaveText("busy, try later");
  await expect(attempts.nth(1)).toContainText("HTTP 200");
  await expect(row.getByLabel("Answer to attempt 2")).toHaveText("got it");

  await page.getByRole("button", { name: "Send test event" }).click();
  const testRow = log.getByRole("listitem").filter({ hasText: "Test event" });
  await expect(testRow).toHaveCount(1);
  await expect(testRow).toContainText("sent by Send test event");
  await expect(testRow).not.toContainText("—.test");
  await expectAxeClean(page, "webhook deliveries with attempts");
  await shot(page, "210-webhook-attempts-1280");
  receiver.close();
});
