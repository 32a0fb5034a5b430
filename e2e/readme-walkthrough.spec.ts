import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";

// Runs the README's curl walkthrough verbatim against the server Playwright started (same DATA_DIR, so
// `npx tabula create-account` writes to the database the server reads).
const walkthrough = () => {
  const readme = fs.readFileSync("README.md", "utf8");
  const block = /<!-- walkthrough:start -->\s*```bash\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme);
  if (!block) throw new Error("README.md has no walkthrough block");
  return block[1];
};

test("the README walkthrough works verbatim on a fresh install", () => {
  const output = execFileSync("bash", ["-euo", "pipefail", "-c", walkthrough()], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
    encoding: "utf8",
    timeout: 120_000,
  });
  const lines = output.split("\n");
  const db = /^database: ([a-z][a-z0-9_]+)$/m.exec(output)?.[1];
  expect(db, output).toMatch(/^shop_[a-z0-9]{6}$/);
  const created = JSON.parse(lines.find((l) => l.startsWith("[{"))!);
  expect(created.map((p: { name: string }) => p.name)).toEqual(["Hammer", "Wrench", "Saw"]);
  expect(created[0].price).toBe(19.99);
  expect(created[1].status).toBe("draft");
  const statusLines = lines.filter((l) => /^\d{3}$/.test(l));
  expect(statusLines).toEqual(["204", "404"]);
  const page = JSON.parse(lines.filter((l) => l.startsWith("[{")).at(-1)!);
  expect(page.map((p: { name: string; price: number }) => [p.name, p.price])).toEqual([
    ["Hammer", 17.99],
    ["Wrench XL", 14.5],
  ]);
  expect(page[1].category_id).toBeNull();
  // The walkthrough reads the ids from the answers (never assumes 1, 2, 3): the page shows the ones created.
  expect(page.map((p: { id: number }) => p.id)).toEqual([created[0].id, created[1].id]);
  expect(output).toContain('"openapi":"3.1.0"');
});
