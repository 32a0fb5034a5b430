import { validationFailed } from "../../errors";
import type { Ctx } from "../context";

export type ListDatabasesInput = { query?: Record<string, string | undefined> };

/**
 * GET /databases?scope=mine|shared&creator=<account id>. Until teams exist, every database an account can
 * reach is its own, so `shared` is empty.
 */
export const listDatabases = async (ctx: Ctx, { query: params = {} }: ListDatabasesInput) => {
  const scope = params.scope ?? "mine";
  if (scope !== "mine" && scope !== "shared") {
    throw validationFailed([{ field: "scope", code: "invalid_value", message: "scope must be mine or shared" }]);
  }
  const creator = params.creator;
  if (creator !== undefined && !/^\d+$/.test(creator)) {
    throw validationFailed([{ field: "creator", code: "invalid_value", message: "creator must be an account id" }]);
  }
  if (scope === "shared") return [];
  let query = ctx.app.engine.meta
    .selectFrom("databases")
    .select(["id", "instance", "name", "owner_id", "created_at", "updated_at"])
    .where("owner_id", "=", ctx.actor.accountId);
  if (creator !== undefined) query = query.where("owner_id", "=", Number(creator));
  const rows = await query.orderBy("id").execute();
  const counts = await ctx.app.engine.meta
    .selectFrom("tables")
    .select(["database_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("database_id", "in", rows.length ? rows.map((r) => r.id) : [0])
    .groupBy("database_id")
    .execute();
  const byDb = new Map(counts.map((c) => [c.database_id, Number(c.n)]));
  return rows.map((r) => ({
    instance: r.instance,
    name: r.name,
    owner_id: r.owner_id,
    api_base: `/v1/${r.instance}`,
    table_count: byDb.get(r.id) ?? 0,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
};
