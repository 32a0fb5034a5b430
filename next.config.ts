import type { NextConfig } from "next";

const config: NextConfig = {
  // Native drivers stay outside the bundle; Next loads them from node_modules at run time. So do the logger
  // (pino's transports load files by path) and prom-client (process metrics read from node internals).
  serverExternalPackages: ["better-sqlite3", "bcrypt", "mysql2", "ioredis", "pino", "prom-client"],
  poweredByHeader: false,
  // `npm test` runs `tsc --noEmit` over the whole project beside the build; the build's own check of the same files
  // would repeat it (about 40 s on 2 cores). Every other build checks types as usual.
  typescript: { ignoreBuildErrors: process.env.TABULA_TYPES_CHECKED === "1" },
  // Turbopack keeps a build cache in .next/cache that makes the next build of this checkout faster; writing it takes
  // 10-15 s of a fresh build. `npm test` builds a checkout once (CI: a fresh clone), so it goes without.
  experimental: { turbopackFileSystemCacheForBuild: process.env.TABULA_BUILD_CACHE !== "0" },
};

export default config;
