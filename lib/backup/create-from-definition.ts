// A new database made from a definition (a backup's, a clone's source): its tables all at once, then each
// table's policies and hooks, the joins and the auth settings, each through its own service and checks. Every
// part is parsed first, so a foreign definition is a 422 naming its place before anything is created.
import type { z } from "zod";
import { DEFINITION_PARTS } from "../contract/schemas/backups";
import { DatabaseCreate } from "../contract/schemas/databases";
import { parseWith } from "../contract/parse-input";
import type { Ctx, DbCtx } from "../meta/context";
import { DEFAULT_AUTH } from "../meta/load-auth";
import { updateAuth } from "../services/auth/update-auth";
import { createDatabase } from "../services/databases/create-database";
import { databaseCtx } from "../services/databases/database-ctx";
import { updateHooks } from "../services/hooks/hook-service";
import { createJoin } from "../services/joins/create-join";
import { updatePolicies } from "../services/policies/update-policies";

type Table = z.output<typeof DEFINITION_PARTS.table>;

export type ParsedDefinition = { tables: Table[]; joins: z.output<typeof DEFINITION_PARTS.join>[]; auth?: z.output<typeof DEFINITION_PARTS.auth> };

/** Every table, join and the auth settings parsed with the management API's schemas; problems name `definition.tables[2].columns[0].type`. */
export const parseDefinition = (definition: { tables?: unknown; joins?: unknown; auth?: unknown }, prefix = "definition"): ParsedDefinition => {
  const tables = Array.isArray(definition.tables) ? definition.tables : [];
  const joins = Array.isArray(definition.joins) ? definition.joins : [];
  return {
    tables: tables.map((t, i) => parseWith(DEFINITION_PARTS.table, t, [prefix, `tables[${i}]`])),
    joins: joins.map((j, i) => parseWith(DEFINITION_PARTS.join, j, [prefix, `joins[${i}]`])),
    auth: definition.auth === undefined ? undefined : parseWith(DEFINITION_PARTS.auth, definition.auth, [prefix, "auth"]),
  };
};

const hasHooks = (hooks: Table["hooks"]) => !!hooks && Object.values(hooks).some((steps) => Array.isArray(steps) && steps.length > 0);
const hasPolicies = (policies: Table["policies"]) => !!policies && Object.values(policies).some((p) => p !== undefined && p !== null);

/** Creates the database `name` as `definition` describes it; on any refusal nothing stays (the caller drops what was made). */
export const createFromDefinition = async (ctx: Ctx, name: string, definition: ParsedDefinition, made: (instance: string) => void | Promise<void>): Promise<DbCtx> => {
  const tables = definition.tables.map(({ policies: _p, hooks: _h, ...table }) => table);
  const body = parseWith(DatabaseCreate, { name, tables }, ["definition"]);
  const created = await createDatabase(ctx, { body });
  await made(created.instance);
  let db = await databaseCtx(ctx, created.instance);
  const { instance } = created;
  for (const table of definition.tables) {
    if (hasPolicies(table.policies)) await updatePolicies(db, { instance, table: table.name, body: table.policies! });
    if (hasHooks(table.hooks)) {
      db = await databaseCtx(ctx, instance);
      await updateHooks(db, { instance, table: table.name, body: table.hooks! });
    }
    db = await databaseCtx(ctx, instance);
  }
  for (const join of definition.joins) {
    await createJoin(db, { instance, body: join });
    db = await databaseCtx(ctx, instance);
  }
  const auth = definition.auth && { ...DEFAULT_AUTH, ...definition.auth };
  if (auth && JSON.stringify(auth) !== JSON.stringify(DEFAULT_AUTH)) {
    await updateAuth(db, { instance, body: auth });
    db = await databaseCtx(ctx, instance);
  }
  return db;
};
