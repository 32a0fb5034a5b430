import type { DatabaseSchema } from "../../schema/types";
import { workspaceRole } from "../../teams/roles";
import type { Ctx } from "../../meta/context";
import { databaseView } from "../../meta/serialize";

/** Id and email of the given accounts. */
export const peopleById = async (ctx: Ctx, ids: number[]) => {
  const rows = ids.length ? await ctx.app.engine.meta.selectFrom("accounts").select(["id", "email"]).where("id", "in", [...new Set(ids)]).execute() : [];
  return new Map(rows.map((r) => [r.id, { id: r.id, email: r.email }]));
};

/** A database as the management API shows it: its schema, its owner and creator, and the caller's role. */
export const databaseDetail = async (ctx: Ctx, schema: DatabaseSchema, times: { created_at: string; updated_at: string }) => {
  const creatorId = schema.creatorId ?? schema.ownerId;
  const people = await peopleById(ctx, [schema.ownerId, creatorId]);
  const role = ctx.role ?? (await workspaceRole(ctx.app.engine.meta, schema.ownerId, ctx.actor.accountId)) ?? "owner";
  return { ...databaseView(schema, times), owner: people.get(schema.ownerId)!, creator: people.get(creatorId)!, role };
};
