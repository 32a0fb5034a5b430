import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT || 3000);
export const E2E_DATA_DIR = path.resolve("tests/.tmp/e2e-data");
/** The loopback DNS server 08-public-docs starts; the server asks it (DNS_SERVERS) when verifying a docs domain. */
export const E2E_DNS_PORT = Number(process.env.E2E_DNS_PORT || PORT + 2000);
export const E2E_CNAME_TARGET = "tabula.e2e.test";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  workers: 1,
  timeout: 60_000,
  // The suite runs beside the vitest unit and http lanes (scripts/test.sh), so a step may take longer than on an
  // idle machine: assertions wait up to 10 s before they fail.
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    // A fresh data folder per run; the production server (server.ts) exactly as `npm start` runs it.
    command: `rm -rf "${E2E_DATA_DIR}" && node bin/start.mjs`,
    url: `http://localhost:${PORT}/api/v1/openapi.json`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_DATA_DIR,
      BCRYPT_COST: "4",
      NEXT_TELEMETRY_DISABLED: "1",
      // A line per request would bury the report; warnings and errors still show.
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      DNS_SERVERS: `127.0.0.1:${E2E_DNS_PORT}`,
      DNS_TIMEOUT_MS: "2000",
      DOCS_CNAME_TARGET: E2E_CNAME_TARGET,
      // 12-webhooks delivers to a receiver on loopback.
      WEBHOOK_ALLOW_PRIVATE: "1",
      // 99-sessions gives its sign-in limit case an address of its own through X-Forwarded-For.
      TRUST_PROXY: "1",
    },
  },
});
