// Writes restored rows into a new database's tables on a connection of its own, batch by batch, with foreign
// key checks off (a reference may name a row of a table restored later) and ids kept as they were.
import path from "node:path";
import { createConnection } from "mysql2/promise";
import type { App } from "../app-type";
import { mysqlConnectionOptions } from "../db/engine";
import { openSqlite } from "../db/open-sqlite";

export type RowSink = {
  insert: (table: string, columns: string[], rows: unknown[][]) => Promise<void>;
  close: () => Promise<void>;
};

const openSqliteSink = (app: App, physical: string): RowSink => {
  const conn = openSqlite(path.join(app.config.dataDir, "databases", physical));
  conn.raw.pragma("foreign_keys = OFF");
  return {
    insert: async (table, columns, rows) => {
      const stmt = conn.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      conn.raw.transaction(() => {
        for (const row of rows) stmt.run(row);
      })();
    },
    close: async () => conn.close(),
  };
};

const openMysqlSink = async (app: App, physical: string): Promise<RowSink> => {
  const conn = await createConnection(mysqlConnectionOptions(app.config.databaseUrl!, physical));
  await conn.query("SET SESSION FOREIGN_KEY_CHECKS = 0");
  return {
    insert: async (table, columns, rows) => {
      await conn.query(`INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(", ")}) VALUES ?`, [rows]);
    },
    close: async () => {
      await conn.end().catch(() => conn.destroy());
    },
  };
};

export const openRowSink = (app: App, physical: string): Promise<RowSink> =>
  app.engine.kind === "mysql" ? openMysqlSink(app, physical) : Promise.resolve(openSqliteSink(app, physical));
