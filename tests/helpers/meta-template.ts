// Vitest global set-up: with TEST_MYSQL_URL, migrates one MariaDB metadata schema before the lane's files run and
// hands its name to the harness (`inject("metaTemplate")`), which copies it (tables, rows, counters) into each
// harness's own schema instead of replaying every migration there: a migrated schema takes seconds on a busy
// machine, a copy a fraction of that. The migrations themselves still run here, once per lane, and in every
// server process and private MariaDB a test starts. Dropped when the lane ends.
import { randomBytes } from "node:crypto";
import { createPool } from "mysql2/promise";
import type { TestProject } from "vitest/node";
import { openEngine } from "../../lib/db/engine";
import { migrateToLatest } from "../../lib/db/migrations";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated metadata schema the harness copies, on TEST_MYSQL_URL's server; "" without one. */
    metaTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_MYSQL_URL;
  if (!url) {
    project.provide("metaTemplate", "");
    return;
  }
  const base = new URL(url);
  const name = `tabula_tpl_${randomBytes(4).toString("hex")}`;
  base.pathname = `/${name}`;
  const engine = await openEngine({ engine: "mysql", dataDir: "", databaseUrl: base.toString() } as Parameters<typeof openEngine>[0]);
  try {
    await migrateToLatest(engine.meta, "mysql");
  } finally {
    await engine.close();
  }
  project.provide("metaTemplate", name);
  return async () => {
    const pool = createPool({ host: base.hostname, port: Number(base.port || 3306), user: decodeURIComponent(base.username || "root"), password: decodeURIComponent(base.password) });
    await pool.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await pool.end();
  };
}
