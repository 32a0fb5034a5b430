// Applies a validated plan through the same services as the dashboard: the database (metered like any
// create), each table, each join, then the seed rows. Everything created is journaled; on any failure the
// journal is undone in reverse (a new database is dropped whole), so MariaDB's implicit DDL commits leave nothing.
import { runWrite } from "../api/write/run-write";
import { FULL_ACCESS } from "../rls/access";
import { logger } from "../ops/logger";
import { indexTable } from "../api/table-index";
import type { Ctx } from "../meta/context";
import { createDatabase } from "../services/databases/create-database";
import { databaseCtx } from "../services/databases/database-ctx";
import { deleteDatabase } from "../services/databases/delete-database";
import { createJoin } from "../services/joins/create-join";
import { deleteJoin } from "../services/joins/delete-join";
import { loadSchema } from "../meta/load-schema";
import { createTable } from "../services/tables/create-table";
import { dropTable } from "../services/tables/drop-table";
import { quotaMeter } from "../plans/quotas";
import type { DatabaseSchema } from "../schema/types";
import type { DraftPlan } from "./plan";
import { parseWith } from "../contract/parse-input";
import { TableInput } from "../contract/schemas/databases";
import { isReference } from "../schema/type-traits";

/** Test seams: a failure injected before a given table is created. */
export type ApplyFaults = { beforeTable?: (name: string, index: number) => void | Promise<void> };

/**
 * Inserts a table's seed rows one by one, turning each reference value (a seed position 1..n of the referenced
 * table) into the id that row actually got: ids are not consecutive (a Galera cluster steps them by its size).
 */
const seedTable = async (ctx: Ctx, instance: string, table: string, rows: Record<string, unknown>[], seedIds: Map<string, number[]>) => {
  const schema = (await loadSchema(ctx.app, instance))!;
  const def = schema.tables.get(table)!;
  const refs = def.columns.filter((c) => isReference(c) && c.references);
  const values = rows.map((row) => {
    const copy = { ...row };
    for (const c of refs) {
      const position = copy[c.name];
      const id = typeof position === "number" ? seedIds.get(c.references!)?.[position - 1] : undefined;
      if (id !== undefined) copy[c.name] = id;
    }
    return copy;
  });
  const udb = ctx.app.engine.userDb(schema.physical);
  const records = await runWrite({ app: ctx.app, udb, index: indexTable(def), access: FULL_ACCESS, action: "create", body: values });
  seedIds.set(table, records.map((r) => Number(r.id)));
};

/** Creates what the plan adds (in `existing`, or a new database) and returns the database's instance. */
export const applyPlan = async (ctx: Ctx, plan: DraftPlan, existing?: DatabaseSchema, faults?: ApplyFaults): Promise<string> => {
  const { app, actor } = ctx;
  const undo: (() => Promise<unknown>)[] = [];
  try {
    let instance = existing?.instance ?? "";
    // Each change moves the schema on: every step starts from the database as it is now.
    const current = () => databaseCtx(ctx, instance);
    if (!existing) {
      const owner = ctx.workspaceId ?? actor.accountId;
      const created = await createDatabase({ ...ctx, meter: quotaMeter("databases", owner, `account:${actor.accountId}`, {}, app) }, { body: { name: plan.name } });
      instance = created.instance;
      undo.push(async () => deleteDatabase(await current(), { instance }));
    }
    for (const [i, table] of plan.tables.entries()) {
      await faults?.beforeTable?.(table.name, i);
      await createTable(await current(), { instance, body: parseWith(TableInput, { name: table.name, columns: table.columns }) });
      if (existing) undo.push(async () => dropTable(await current(), { instance, table: table.name }));
    }
    for (const join of plan.joins) {
      await createJoin(await current(), { instance, body: join });
      if (existing) undo.push(async () => deleteJoin(await current(), { instance, join: join.name }));
    }
    // Seed in table order, so referenced rows exist first; references name seed positions, mapped to real ids.
    const seedIds = new Map<string, number[]>();
    for (const table of plan.tables) {
      const rows = plan.seed[table.name];
      if (rows?.length) await seedTable(ctx, instance, table.name, rows, seedIds);
    }
    return instance;
  } catch (err) {
    for (const step of undo.reverse()) {
      await step().catch((e: unknown) => logger.error({ err: e }, "undoing an AI build step failed"));
    }
    throw err;
  }
};
