import type { NextConfig } from "next";

const config: NextConfig = {
  // Native drivers stay outside the bundle; Next loads them from node_modules at run time.
  serverExternalPackages: ["better-sqlite3", "bcrypt", "mysql2", "ioredis"],
  poweredByHeader: false,
};

export default config;
