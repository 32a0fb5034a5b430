// Invite links to a workspace: created by its owner or an admin (the plan caps seats and roles: the route's
// quota), listed with their links, revoked, and accepted by any signed-in account, or by a new one from the
// link even when sign-up is closed.
import { createHash, randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { App } from "../../app-type";
import type { InvitesTable } from "../../db/meta-schema";
import { ApiError, conflict, notFound } from "../../errors";
import { decryptKey, encryptKey } from "../../keys/key-crypto";
import { type Ctx, nowIso } from "../../meta/context";
import { type ChangeCtx, commitMeta, commitRows } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";
import type { MemberRole } from "../../plans/default-plans";
import { sendInviteMail } from "../../teams/invite-mail";
import { isUniqueViolation } from "../../db/unique-violation";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type InviteStatus = "pending" | "expired" | "used_up" | "revoked";

const statusOf = (row: Selectable<InvitesTable>, now = nowIso()): InviteStatus =>
  row.revoked_at ? "revoked" : row.uses >= row.max_uses ? "used_up" : row.expires_at <= now ? "expired" : "pending";

export const inviteUrl = (origin: string | undefined, token: string) => `${origin ?? ""}/invite/${token}`;

const inviteView = (app: App, origin: string | undefined, row: Selectable<InvitesTable>) => {
  const token = decryptKey(app.secret, row.token_enc);
  return {
    id: row.id,
    role: row.role as MemberRole,
    email: row.email,
    url: inviteUrl(origin, token),
    token,
    expires_at: row.expires_at,
    max_uses: row.max_uses,
    uses: row.uses,
    status: statusOf(row),
    created_at: row.created_at,
  };
};

export type CreateInviteInput = { body: { role: MemberRole; email?: string; expires_in_hours?: number; max_uses?: number } };

/** POST /team/invites: a link for `role` in the workspace authorize chose; emailed when SMTP_URL is set. */
export const createInvite = async (ctx: Ctx, { body }: CreateInviteInput) => {
  const { app } = ctx;
  const ownerId = ctx.workspaceId ?? ctx.actor.accountId;
  const token = `inv_${randomBytes(32).toString("base64url")}`;
  const at = new Date();
  const row = {
    owner_id: ownerId,
    role: body.role,
    email: body.email?.trim().toLowerCase() ?? null,
    token_hash: hashToken(token),
    token_enc: encryptKey(app.secret, token),
    expires_at: new Date(at.getTime() + (body.expires_in_hours ?? 168) * 3_600_000).toISOString(),
    max_uses: body.max_uses ?? 1,
    uses: 0,
    created_by: ctx.actor.accountId,
    created_at: at.toISOString(),
    revoked_at: null,
  };
  const id = await commitRows(ctx, async (trx) => Number((await trx.insertInto("invites").values(row).executeTakeFirstOrThrow()).insertId));
  const view = inviteView(app, ctx.origin, { ...row, id });
  let emailSent = false;
  if (row.email) {
    const inviter = await app.engine.meta.selectFrom("accounts").select("email").where("id", "=", ownerId).executeTakeFirstOrThrow();
    emailSent = await sendInviteMail(app, { to: row.email, url: view.url, inviter: inviter.email, role: row.role, expiresAt: row.expires_at });
  }
  return { ...view, email_sent: emailSent };
};

/** GET /team/invites: the workspace's invites that were not revoked, newest first, with their links. */
export const listInvites = async (ctx: Ctx, _input: Record<string, never>) => {
  const rows = await ctx.app.engine.meta
    .selectFrom("invites")
    .selectAll()
    .where("owner_id", "=", ctx.workspaceId ?? ctx.actor.accountId)
    .where("revoked_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  return rows.map((r) => inviteView(ctx.app, ctx.origin, r));
};

/** DELETE /team/invites/{id}: the link stops working at once; its unused seats are free again. */
export const revokeInvite = async (ctx: Ctx, { id }: { id: number }) => {
  const meta = ctx.app.engine.meta;
  const ownerId = ctx.workspaceId ?? ctx.actor.accountId;
  const row = await meta.selectFrom("invites").select("id").where("id", "=", id).where("owner_id", "=", ownerId).where("revoked_at", "is", null).executeTakeFirst();
  if (!row) throw notFound(`Invite ${id} was not found.`);
  await commitRows(ctx, (trx) => trx.updateTable("invites").set({ revoked_at: nowIso() }).where("id", "=", row.id).execute());
};

const gone = (status: InviteStatus) =>
  new ApiError(
    "invite_expired",
    status === "revoked" ? "This invite was revoked; ask for a new one." : status === "used_up" ? "This invite was already used; ask for a new one." : "This invite has expired; ask for a new one.",
  );

const findInvite = async (app: App, token: string) => {
  const row = token ? await app.engine.meta.selectFrom("invites").selectAll().where("token_hash", "=", hashToken(token)).executeTakeFirst() : undefined;
  if (!row) throw notFound("No such invite; check the link.");
  return row;
};

const ownerOf = async (app: App, ownerId: number) =>
  app.engine.meta.selectFrom("accounts").select(["id", "email"]).where("id", "=", ownerId).executeTakeFirstOrThrow();

/**
 * What the invite page shows before anyone signs in: whose workspace, which role, whether it still works, and the
 * address it was sent to (the sign-up form starts with it; whoever holds the link could read the mail anyway).
 */
export const describeInvite = async (app: App, token: string) => {
  const row = await findInvite(app, token);
  return { workspace: { owner: await ownerOf(app, row.owner_id) }, role: row.role as MemberRole, status: statusOf(row), expires_at: row.expires_at, email: row.email };
};

/** Throws the invite's 404/410 unless it can still be accepted (sign-up from a link checks this first). */
export const requireUsableInvite = async (app: App, token: string) => {
  const row = await findInvite(app, token);
  const status = statusOf(row);
  if (status !== "pending") throw gone(status);
  return row;
};

/**
 * Makes `accountId` a member with the invite's role, using one of its uses. The owner, or an account that is
 * already a member, gets 409 and uses nothing; an expired, revoked or used-up invite is 410.
 */
export const acceptInvite = async (ctx: ChangeCtx, accountId: number, token: string) => {
  const { app } = ctx;
  const row = await findInvite(app, token);
  // The joining is the workspace owner's to see.
  noteAudit(ctx, { workspaceId: row.owner_id, target: `invite ${row.id}` });
  if (row.owner_id === accountId) throw conflict("This is your own workspace: you own every database in it already.");
  await commitMeta(ctx, { kind: "team", ownerId: row.owner_id }, async (trx) => {
    const member = await trx.selectFrom("members").select("role").where("owner_id", "=", row.owner_id).where("account_id", "=", accountId).executeTakeFirst();
    if (member) throw conflict(`You are already a member of this workspace (as ${member.role}).`);
    const now = nowIso();
    const used = await trx
      .updateTable("invites")
      .set((eb) => ({ uses: eb("uses", "+", 1) }))
      .where("id", "=", row.id)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .where((eb) => eb("uses", "<", eb.ref("max_uses")))
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw gone(statusOf(row, now) === "pending" ? "used_up" : statusOf(row, now));
    try {
      await trx.insertInto("members").values({ owner_id: row.owner_id, account_id: accountId, role: row.role, invited_by: row.created_by, joined_at: now }).execute();
    } catch (err) {
      // The same account accepting twice at once: the second insert meets the first's primary key.
      if (isUniqueViolation(err)) throw conflict("You are already a member of this workspace.");
      throw err;
    }
  });
  return { workspace: { owner: await ownerOf(app, row.owner_id) }, role: row.role as MemberRole };
};

/** POST /team/invites/accept: the signed-in caller accepts. */
export const acceptInviteRoute = (ctx: Ctx, { body }: { body: { token: string } }) => acceptInvite(ctx, ctx.actor.accountId, body.token);
