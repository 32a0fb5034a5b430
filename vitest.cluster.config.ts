import path from "node:path";
import { defineConfig } from "vitest/config";

// `npm run test:cluster`: the cluster suite (cluster-tests/), apart from `npm test`'s vitest (tests/). Its global
// setup starts the topology of `npm run cluster` (without the dashboard node) and removes it afterwards.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["cluster-tests/**/*.test.ts"],
    globalSetup: ["cluster-tests/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
