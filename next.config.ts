import type { NextConfig } from "next";

const config: NextConfig = {
  // Native drivers stay outside the bundle; Next loads them from node_modules at run time. So do the logger
  // (pino's transports load files by path) and prom-client (process metrics read from node internals).
  serverExternalPackages: ["better-sqlite3", "bcrypt", "mysql2", "ioredis", "pino", "prom-client"],
  poweredByHeader: false,
  // `npm test` runs `tsc --noEmit` over the whole project just before it builds; the build's own check of the
  // same files would repeat it (about 40 s on 2 cores). Every other build checks types as usual.
  typescript: { ignoreBuildErrors: process.env.TABULA_TYPES_CHECKED === "1" },
};

export default config;
