import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // The in-process servers' JSON request lines would bury the report; server processes set their own level.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
