import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";

// A small third-party page (its own localhost port, so CORS matters) logs a user in with fetch, keeps only
// the JWT, and lists the notes the API returns: exactly that user's rows, never the other user's.
const API = `http://localhost:${Number(process.env.E2E_PORT || 3000)}`;

const PAGE = (db: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Notes</title>
<style>body{font:16px system-ui;margin:2rem}li{margin:.25rem 0}</style></head>
<body>
<h1>My notes</h1>
<form id="login"><input name="email" placeholder="email"><input name="password" type="password" placeholder="password"><button>Log in</button></form>
<p id="who"></p><ul id="notes"></ul><p id="error"></p>
<script>
const api = ${JSON.stringify(`${API}/v1/${db}`)};
document.getElementById("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  try {
    const login = await fetch(api + "/auth/login", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: form.get("email"), password: form.get("password") }) });
    if (!login.ok) throw new Error("login " + login.status);
    const { token, user } = await login.json();
    document.getElementById("who").textContent = "Logged in as " + user.email;
    const res = await fetch(api + "/notes?_sort=title", { headers: { authorization: "Bearer " + token, prefer: "count=exact" } });
    if (!res.ok) throw new Error("notes " + res.status);
    const notes = await res.json();
    document.getElementById("notes").innerHTML = notes.map((n) => "<li>" + n.title.replace(/</g, "&lt;") + "</li>").join("");
    document.getElementById("who").dataset.total = res.headers.get("x-total-count");
  } catch (err) {
    document.getElementById("error").textContent = String(err);
  }
});
</script></body></html>`;

const call = async (method: string, path: string, key: string, body?: unknown) => {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.ok, `${method} ${path}: ${res.status} ${text}`).toBe(true);
  return text ? JSON.parse(text) : undefined;
};

test("a page on another origin logs in with fetch and shows only its user's rows", async ({ page }) => {
  const out = execFileSync("node", ["bin/tabula.mjs", "create-account", "--email", `rls-${Date.now()}@example.com`, "--password", "rls e2e password"], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
    encoding: "utf8",
  });
  const key = out.trim().split("\n").at(-1)!;
  expect(key).toMatch(/^sk_/);

  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE(db)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;

  const database = await call("POST", "/api/v1/databases", key, {
    name: "rls page",
    tables: [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      { name: "notes", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "owner_id", type: "bigint", default: "auth.id" }] },
    ],
  });
  const db: string = database.instance;
  try {
    await call("PUT", `/api/v1/databases/${db}/auth`, key, { enabled: true, cors_origins: [origin] });
    await call("PUT", `/api/v1/databases/${db}/tables/notes/policies`, key, { select: "owner_id = auth.id" });
    const ann = await call("POST", `/v1/${db}/users`, key, { email: "ann@example.com", password: "ann-password" });
    const bob = await call("POST", `/v1/${db}/users`, key, { email: "bob@example.com", password: "bob-password" });
    await call("POST", `/v1/${db}/notes`, key, [
      { title: "Ann: groceries", owner_id: ann.id },
      { title: "Ann: <b>taxes</b>", owner_id: ann.id },
      { title: "Bob: secret plans", owner_id: bob.id },
    ]);

    await page.goto(origin);
    await page.fill("input[name=email]", "ann@example.com");
    await page.fill("input[name=password]", "ann-password");
    await page.click("button");
    await expect(page.locator("#who")).toHaveText("Logged in as ann@example.com");
    await expect(page.locator("#notes li")).toHaveText(["Ann: <b>taxes</b>", "Ann: groceries"]);
    await expect(page.locator("#who")).toHaveAttribute("data-total", "2");
    await expect(page.locator("body")).not.toContainText("Bob");
    await page.screenshot({ path: "test-results/screens/rls-page.png", fullPage: true });

    // The same page from an origin the database does not allow: the browser blocks the call (CORS).
    await call("PUT", `/api/v1/databases/${db}/auth`, key, { enabled: true, cors_origins: ["https://elsewhere.example"] });
    await page.reload();
    await page.fill("input[name=email]", "ann@example.com");
    await page.fill("input[name=password]", "ann-password");
    await page.click("button");
    await expect(page.locator("#error")).toContainText("Failed to fetch");
    await expect(page.locator("#notes li")).toHaveCount(0);
  } finally {
    server.close();
  }
});

test("the Auth tab: settings, a policy editor with inline parse errors and presets, and test as user", async ({ page }) => {
  const email = `rls-dash-${Date.now()}@example.com`;
  const password = "rls dashboard password";
  const out = execFileSync("node", ["bin/tabula.mjs", "create-account", "--email", email, "--password", password], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
    encoding: "utf8",
  });
  const key = out.trim().split("\n").at(-1)!;
  const database = await call("POST", "/api/v1/databases", key, {
    name: "Notes app",
    tables: [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      { name: "notes", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "owner_id", type: "bigint", default: "auth.id" }] },
    ],
  });
  const db: string = database.instance;
  const ann = await call("POST", `/v1/${db}/users`, key, { email: "ann@example.com", password: "ann-password" });
  const bob = await call("POST", `/v1/${db}/users`, key, { email: "bob@example.com", password: "bob-password" });
  await call("POST", `/v1/${db}/notes`, key, [
    { title: "Ann: groceries", owner_id: ann.id },
    { title: "Bob: secret plans", owner_id: bob.id },
  ]);

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/databases$/);
  await page.goto(`/databases/${db}/auth`);
  await expect(page.getByRole("heading", { name: "Database auth" })).toBeVisible();
  await page.getByLabel("Enable database auth").check();
  await page.getByRole("button", { name: "Save auth settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/rls-auth-settings.png", fullPage: true });

  await page.getByLabel("Table", { exact: true }).first().selectOption("notes");
  await page.locator("#policy-select").fill("owner_id = auth.id or lower(title) = 'x'");
  await page.getByRole("button", { name: "Save policies" }).click();
  await expect(page.getByText(/^position 23: function calls are not allowed/)).toBeVisible();
  await expect(page.getByTestId("policy-caret")).toContainText("^");
  await page.screenshot({ path: "test-results/screens/rls-policy-error.png", fullPage: true });

  await page.getByRole("button", { name: "Owner only" }).click();
  await expect(page.locator("#policy-select")).toHaveValue("owner_id = auth.id");
  await page.getByRole("button", { name: "Save policies" }).click();
  await expect(page.getByText("Saved; the API enforces them now.")).toBeVisible();

  await page.locator("#test-user").selectOption(String(ann.id));
  await page.locator("#test-table").selectOption("notes");
  await page.getByRole("button", { name: "Show what this user gets" }).click();
  const result = page.getByTestId("test-as-user-result");
  await expect(result).toContainText("1 visible row(s)");
  await expect(result).toContainText("Ann: groceries");
  await expect(result).not.toContainText("Bob");
  await expect(result.getByRole("row").nth(1)).toContainText("✓ allowed");
  await page.screenshot({ path: "test-results/screens/rls-test-as-user.png", fullPage: true });
});
