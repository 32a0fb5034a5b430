import type { Transaction } from "kysely";
import type { MetaDb } from "../../db/meta-schema";
import type { Ctx } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { notFound } from "../../errors";
import type { MemberRole } from "../../plans/default-plans";

const person = (id: number, email: string) => ({ id, email });

/** GET /team/members: the workspace's members with their roles (the owner is not one of them). */
export const listMembers = async (ctx: Ctx, _input: Record<string, never>) => {
  const rows = await ctx.app.engine.meta
    .selectFrom("members")
    .innerJoin("accounts", "accounts.id", "members.account_id")
    .select(["members.account_id", "accounts.email", "members.role", "members.invited_by", "members.joined_at"])
    .where("members.owner_id", "=", ctx.workspaceId ?? ctx.actor.accountId)
    .orderBy("members.joined_at")
    .execute();
  return rows.map((r) => ({ account: person(r.account_id, r.email), role: r.role as MemberRole, invited_by: r.invited_by, joined_at: r.joined_at }));
};

/** A change to one member, then the event every process's caches follow: it holds from the next request. */
const changeMember = async (ctx: Ctx, accountId: number, change: (trx: Transaction<MetaDb>, ownerId: number, accountId: number) => Promise<unknown>) => {
  const ownerId = ctx.workspaceId ?? ctx.actor.accountId;
  await commitMeta(ctx, { kind: "team", ownerId }, async (trx) => {
    const exists = await trx.selectFrom("members").select("role").where("owner_id", "=", ownerId).where("account_id", "=", accountId).executeTakeFirst();
    if (!exists) throw notFound(`Account ${accountId} is not a member of this workspace.`);
    await change(trx, ownerId, accountId);
  });
  return { ownerId, accountId };
};

export type UpdateMemberInput = { account: number; body: { role: MemberRole } };

/** PATCH /team/members/{account}: a new role (one the plan allows: the route's quota). */
export const updateMember = async (ctx: Ctx, { account, body }: UpdateMemberInput) => {
  const { ownerId, accountId } = await changeMember(ctx, account, (trx, owner, id) =>
    trx.updateTable("members").set({ role: body.role }).where("owner_id", "=", owner).where("account_id", "=", id).execute(),
  );
  return (await listMembers({ ...ctx, workspaceId: ownerId }, {})).find((m) => m.account.id === accountId)!;
};

/** DELETE /team/members/{account}: the account loses every database of the workspace at its next request. */
export const removeMember = async (ctx: Ctx, { account }: { account: number }) => {
  await changeMember(ctx, account, (trx, owner, id) => trx.deleteFrom("members").where("owner_id", "=", owner).where("account_id", "=", id).execute());
};

/** GET /team/workspaces: the workspaces the caller belongs to, with its role in each. */
export const listWorkspaces = async (ctx: Ctx, _input: Record<string, never>) => {
  const rows = await ctx.app.engine.meta
    .selectFrom("members")
    .innerJoin("accounts", "accounts.id", "members.owner_id")
    .select(["members.owner_id", "accounts.email", "members.role", "members.joined_at"])
    .where("members.account_id", "=", ctx.actor.accountId)
    .orderBy("members.joined_at")
    .execute();
  return rows.map((r) => ({ owner: person(r.owner_id, r.email), role: r.role as MemberRole, joined_at: r.joined_at }));
};
