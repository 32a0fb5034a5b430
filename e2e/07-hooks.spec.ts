import { expect, type Page, test } from "@playwright/test";
import { shot, signIn, VIEWPORT } from "./helpers";

// Pre hooks end to end as the operator (made by 01): a database with an `orders` table made through the
// management API, steps written and saved on the Hooks tab, a dry run, a step that fails at runtime, a write
// through the data API that it stops, and the run log opened at the failing step.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };

test.use({ viewport: VIEWPORT });

const step = (page: Page, action: string, n: number) => page.getByRole("listitem", { name: `${action} step ${n}`, exact: true });

test("hooks: steps saved with inline CEL errors, a dry run, a runtime failure refused by the API and logged", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, OWNER);

  let instance = "";
  await test.step("a database with an orders table, through the management API", async () => {
    const made = await page.request.post("/api/v1/databases", {
      data: {
        name: "Hooked shop",
        tables: [
          {
            name: "orders",
            columns: [
              { name: "price", type: "decimal", precision: 10, scale: 2 },
              { name: "quantity", type: "int" },
              { name: "total", type: "decimal", precision: 12, scale: 2 },
              { name: "title", type: "varchar" },
            ],
          },
        ],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    instance = (await made.json()).instance;
  });

  await test.step("the Hooks tab: a set step and an assert; a bad expression is marked where it breaks", async () => {
    await page.goto(`/databases/${instance}/schema`);
    await page.getByRole("navigation", { name: "Database sections" }).getByRole("link", { name: "Hooks", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/databases/${instance}/hooks$`));
    await expect(page.getByLabel("Table", { exact: true })).toHaveValue("orders");
    const insert = page.getByRole("region", { name: "On insert" });
    await expect(insert).toContainText("No steps");

    await insert.getByRole("button", { name: "+ Set a column" }).click();
    await step(page, "insert", 1).getByLabel("Column", { exact: true }).selectOption("total");
    // The column buttons insert `new.<column>` into the expression.
    const expr1 = page.getByRole("textbox", { name: "insert step 1 expression" });
    await step(page, "insert", 1).getByRole("button", { name: "new.price", exact: true }).click();
    await expect(expr1).toHaveValue("new.price");
    await expr1.fill("new.price * double(new.quantity) +");
    await insert.getByRole("button", { name: "+ Assert" }).click();
    await page.getByRole("textbox", { name: "insert step 2 expression" }).fill("new.quantity > 0");
    await step(page, "insert", 2).getByLabel("Message when false").fill("Quantity must be at least 1");

    await page.getByRole("button", { name: "Save hooks" }).click();
    await expect(expr1).toHaveAttribute("aria-invalid", "true");
    await expect(step(page, "insert", 1).getByRole("alert").first()).not.toBeEmpty();
    await expect(step(page, "insert", 1).getByTestId("hook-caret")).toContainText("new.price * double(new.quantity) +");
    await expect(page.getByRole("textbox", { name: "insert step 2 expression" })).not.toHaveAttribute("aria-invalid", "true");
    await shot(page, "hooks-invalid-expression");
    expect((await (await page.request.get(`/api/v1/databases/${instance}/tables/orders/hooks`)).json()).insert).toEqual([]);

    await expr1.fill("new.price * double(new.quantity)");
    await page.getByRole("button", { name: "Save hooks" }).click();
    await expect(page.getByText("Saved; every orders write runs them now.")).toBeVisible();
    await expect(expr1).not.toHaveAttribute("aria-invalid", "true");
    const saved = await (await page.request.get(`/api/v1/databases/${instance}/tables/orders/hooks`)).json();
    expect(saved.insert).toEqual([
      { set: "total", expr: "new.price * double(new.quantity)" },
      { assert: "new.quantity > 0", message: "Quantity must be at least 1" },
    ]);
    await shot(page, "hooks-saved");
  });

  await test.step("try on a sample row: each step's result and the computed total", async () => {
    const form = page.getByRole("form", { name: "Try on a sample row" });
    await form.getByLabel("Row (new)").fill(JSON.stringify({ price: 12.5, quantity: 4, title: "Pens" }, null, 2));
    await form.getByRole("button", { name: "Run hooks" }).click();
    const result = form.getByLabel("Try result");
    await expect(result.getByText("ok", { exact: true })).toBeVisible();
    await expect(result.getByRole("listitem", { name: "Step 0" })).toContainText("→ 50");
    await expect(result.getByRole("listitem", { name: "Step 1" })).toContainText("→ true");
    const row = JSON.parse((await form.getByLabel("Resulting row").textContent()) ?? "{}");
    expect(Number(row.total)).toBe(50);
    await shot(page, "hooks-try");
  });

  await test.step("a step that fails at runtime stops the write: 500 pre_hook_failed, nothing written", async () => {
    const insert = page.getByRole("region", { name: "On insert" });
    await insert.getByRole("button", { name: "+ Set a column" }).click();
    await step(page, "insert", 3).getByLabel("Column", { exact: true }).selectOption("total");
    await page.getByRole("textbox", { name: "insert step 3 expression" }).fill("double(1 / (new.quantity - new.quantity))");
    await page.getByRole("button", { name: "Save hooks" }).click();
    await expect(page.getByText("Saved; every orders write runs them now.")).toBeVisible();

    const keys = (await (await page.request.get("/api/v1/keys")).json()) as { key: string }[];
    const headers = { "x-api-key": keys[0].key };
    const refused = await page.request.post(`/v1/${instance}/orders`, { headers, data: { price: 3, quantity: 2, title: "Broken" } });
    expect(refused.status()).toBe(500);
    expect(await refused.json()).toMatchObject({ error: "pre_hook_failed", hook: "orders.insert", step: 2 });
    const rejected = await page.request.post(`/v1/${instance}/orders`, { headers, data: { price: 3, quantity: 0, title: "None" } });
    expect(rejected.status()).toBe(422);
    expect((await rejected.json()).errors[0]).toMatchObject({ field: "hook.insert[1]", message: "Quantity must be at least 1" });
    const rows = await page.request.get(`/v1/${instance}/orders`, { headers });
    expect(await rows.json()).toEqual([]);
  });

  await test.step("the run log opens a failed run at its failing step", async () => {
    await page.getByRole("tab", { name: "Run logs" }).click();
    const runs = page.getByRole("list", { name: "Hook runs" });
    await expect(runs.getByRole("listitem")).toHaveCount(2);
    await page.getByLabel("Status", { exact: true }).selectOption("failed");
    await expect(runs.getByRole("listitem")).toHaveCount(1);
    await runs.getByRole("button", { name: /^failed orders\.insert run/ }).click();
    const failing = page.getByRole("listitem", { name: "Step 2" });
    await expect(failing).toHaveAttribute("aria-current", "step");
    await expect(failing).toContainText("double(1 / (new.quantity - new.quantity))");
    await expect(failing).toBeInViewport();
    await expect(page.getByRole("listitem", { name: "Step 0" })).not.toHaveAttribute("data-failing");
    await expect(page.getByLabel("Run input")).toContainText('"title": "Broken"');
    await page.screenshot({ path: "test-results/screens/hooks-log-failed.png" });
    await shot(page, "hooks-log-failed-full");
  });
});
