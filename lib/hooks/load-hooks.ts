import type { Kysely } from "kysely";
import type { MetaDb } from "../db/meta-schema";
import type { DatabaseSchema } from "../schema/types";
import { type CompiledHooks, compileHooks } from "./hooks";

/** The pre hooks of one database by table name, compiled against `schema`'s tables. */
export const loadHooks = async (meta: Kysely<MetaDb>, schema: DatabaseSchema): Promise<Map<string, CompiledHooks>> => {
  const rows = await meta.selectFrom("table_hooks").select(["table_id", "hooks"]).where("database_id", "=", schema.id).execute();
  const byId = new Map([...schema.tables.values()].map((t) => [t.id, t]));
  return new Map(
    rows.flatMap((h) => {
      const table = byId.get(h.table_id);
      return table ? [[table.name, compileHooks(table, JSON.parse(h.hooks))] as const] : [];
    }),
  );
};
