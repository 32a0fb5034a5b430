import { applyTables } from "../../ddl/apply-tables";
import { type FieldError, validationFailed } from "../../errors";
import { makeInstanceName } from "../../schema/names";
import { parseTable, type TableInput } from "../../schema/parse-table";
import type { TableDef } from "../../schema/types";
import { type Ctx, nowIso } from "../context";
import { commitMeta } from "../commit-meta";
import { loadSchema } from "../load-schema";
import { storedIndexes } from "../serialize";
import { databaseDetail } from "./database-detail";

const DATABASE_KEYS = new Set(["name", "tables", "workspace"]);

export const parseDatabaseName = (name: unknown, field = "name"): FieldError | undefined =>
  typeof name !== "string" || name.trim().length === 0 || name.length > 80
    ? { field, code: "invalid_name", message: "name must be text of 1 to 80 characters" }
    : undefined;

const parseCreateDatabase = (input: unknown) => {
  const errors: FieldError[] = [];
  const body = (typeof input === "object" && input !== null && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  if (body !== input) errors.push({ field: "body", code: "invalid_type", message: "the body must be a JSON object" });
  for (const key of Object.keys(body)) {
    if (!DATABASE_KEYS.has(key)) errors.push({ field: key, code: "unknown_property", message: `unknown property "${key}"` });
  }
  const nameError = parseDatabaseName(body.name);
  if (nameError) errors.push(nameError);
  const tables: TableInput[] = [];
  if (body.tables !== undefined && !Array.isArray(body.tables)) {
    errors.push({ field: "tables", code: "invalid_type", message: "tables must be an array" });
  } else if (Array.isArray(body.tables)) {
    const names = new Set(body.tables.map((t) => (t as { name?: unknown })?.name).filter((n) => typeof n === "string"));
    body.tables.forEach((raw, i) => {
      const parsed = parseTable(raw, `tables[${i}].`, (n) => names.has(n));
      errors.push(...parsed.errors);
      if (!parsed.table) return;
      if (tables.some((t) => t.name === parsed.table!.name)) {
        errors.push({ field: `tables[${i}].name`, code: "duplicate", message: `table "${parsed.table.name}" is defined twice` });
      }
      tables.push(parsed.table);
    });
  }
  if (errors.length) throw validationFailed(errors);
  return { name: (body.name as string).trim(), tables };
};

export type CreateDatabaseInput = { body: unknown };

/**
 * Creates a database in the workspace authorize chose (the caller's own, or an owner's where it is an editor
 * or admin: that owner's quota), recording the caller as its creator; with `tables` its whole schema (quick
 * create): all of it, or nothing.
 */
export const createDatabase = async (ctx: Ctx, { body }: CreateDatabaseInput) => {
  const { name, tables } = parseCreateDatabase(body);
  const { app } = ctx;
  const at = nowIso();
  let physical = "";
  let instance = "";
  let databaseId = 0;
  const created = () => ({ kind: "database" as const, databaseId, instance, physical });
  // A run that lost a race (and was re-run under a new id) or failed leaves no physical database behind.
  const made: string[] = [];
  const dropAllBut = (kept?: string) => Promise.all(made.filter((p) => p !== kept).map((p) => app.engine.dropUserDb(p)));
  await commitMeta(ctx, created, async (trx) => {
    instance = makeInstanceName(name);
    const { insertId } = await trx
      .insertInto("databases")
      .values({ instance, name, owner_id: ctx.workspaceId ?? ctx.actor.accountId, creator_id: ctx.actor.accountId, physical: "", schema_version: 1, created_at: at, updated_at: at })
      .executeTakeFirstOrThrow();
    const id = Number(insertId);
    databaseId = id;
    physical = app.engine.physicalName(id);
    await trx.updateTable("databases").set({ physical }).where("id", "=", id).execute();
    const defs: TableDef[] = [];
    for (const t of tables) {
      const row = await trx
        .insertInto("tables")
        .values({ database_id: id, name: t.name, columns: JSON.stringify(t.columns), indexes: storedIndexes(t.indexes), created_at: at })
        .executeTakeFirstOrThrow();
      defs.push({ id: Number(row.insertId), name: t.name, columns: t.columns, indexes: t.indexes });
    }
    await app.engine.createUserDb(physical);
    made.push(physical);
    await applyTables(app.engine.userDb(physical), defs);
  }).catch(async (err: unknown) => {
    await dropAllBut();
    throw err;
  });
  await dropAllBut(physical);
  const schema = await loadSchema(app, instance);
  return databaseDetail(ctx, schema!, { created_at: at, updated_at: at });
};
