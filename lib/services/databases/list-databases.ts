import type { Ctx } from "../../meta/context";
import type { DatabaseRole } from "../../teams/permissions";
import { peopleById } from "./database-detail";

export type ListDatabasesInput = { query?: { scope?: "mine" | "shared" | "all"; creator?: string; workspace?: string } };

/**
 * GET /databases?scope=mine|shared|all&creator=<account id>&workspace=<owner id>: `mine` is the caller's own
 * workspace, `shared` ("Shared with me") the workspaces where it is a member, `all` both. Each database says
 * its owner, its creator and the caller's role.
 */
export const listDatabases = async (ctx: Ctx, { query: params = {} }: ListDatabasesInput) => {
  const meta = ctx.app.engine.meta;
  const me = ctx.actor.accountId;
  const scope = params.scope ?? "mine";
  const memberships = await meta.selectFrom("members").select(["owner_id", "role"]).where("account_id", "=", me).execute();
  const roles = new Map<number, DatabaseRole>([[me, "owner"], ...memberships.map((m) => [m.owner_id, m.role as DatabaseRole] as const)]);
  let owners = scope === "mine" ? [me] : scope === "shared" ? memberships.map((m) => m.owner_id) : [...roles.keys()];
  if (params.workspace !== undefined) owners = owners.filter((o) => o === Number(params.workspace));
  if (owners.length === 0) return [];
  // A database a restore or clone is still filling (made under a held claim) shows once it is complete.
  let query = meta
    .selectFrom("databases")
    .select(["id", "instance", "name", "owner_id", "creator_id", "created_at", "updated_at"])
    .where("owner_id", "in", owners)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("restore_claims").select("name").whereRef("restore_claims.owner_id", "=", "databases.owner_id").whereRef("restore_claims.name", "=", "databases.name").whereRef("restore_claims.created_at", "<=", "databases.created_at"))),
    );
  if (params.creator !== undefined) query = query.where((eb) => eb.fn.coalesce("creator_id", "owner_id"), "=", Number(params.creator));
  const rows = await query.orderBy("id").execute();
  const counts = await meta
    .selectFrom("tables")
    .select(["database_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("database_id", "in", rows.length ? rows.map((r) => r.id) : [0])
    .groupBy("database_id")
    .execute();
  const byDb = new Map(counts.map((c) => [c.database_id, Number(c.n)]));
  const people = await peopleById(ctx, rows.flatMap((r) => [r.owner_id, r.creator_id ?? r.owner_id]));
  return rows.map((r) => ({
    instance: r.instance,
    name: r.name,
    owner_id: r.owner_id,
    owner: people.get(r.owner_id)!,
    creator: people.get(r.creator_id ?? r.owner_id)!,
    role: roles.get(r.owner_id)!,
    api_base: `/v1/${r.instance}`,
    table_count: byDb.get(r.id) ?? 0,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
};
