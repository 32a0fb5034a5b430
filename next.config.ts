import type { NextConfig } from "next";

const config: NextConfig = {
  // Native drivers stay outside the bundle; Next loads them from node_modules at run time. So do the logger
  // (pino's transports load files by path) and prom-client (process metrics read from node internals).
  serverExternalPackages: ["better-sqlite3", "bcrypt", "mysql2", "ioredis", "pino", "prom-client"],
  poweredByHeader: false,
};

export default config;
