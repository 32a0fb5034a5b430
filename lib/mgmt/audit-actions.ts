// What each management write records in the audit log: its action, or why it records nothing (it changes
// nothing: a preview, a dry run, a read-only query). A write route in neither table is refused at its first
// call (handle-management-request.ts) and fails the audit walk test, so a new route cannot go unrecorded.
import type { AuditSlot } from "../meta/audit/audit-slot";
import type { Ctx } from "../meta/context";
import type { Route } from "./route";

export const AUDIT_ACTIONS: Record<string, string> = {
  createDatabase: "database.create",
  updateDatabase: "database.update",
  deleteDatabase: "database.delete",
  createTable: "table.create",
  renameTable: "table.update",
  deleteTable: "table.delete",
  addColumn: "column.create",
  addColumns: "column.create",
  updateColumn: "column.update",
  deleteColumn: "column.delete",
  addIndex: "index.create",
  deleteIndex: "index.delete",
  createJoin: "join.create",
  updateJoin: "join.update",
  deleteJoin: "join.delete",
  updateAuth: "auth.update",
  rotateAuthSecret: "auth.rotate_secret",
  sendAuthTestMail: "auth.test_mail",
  impersonateUser: "auth.impersonate",
  verifyAuthUser: "auth_user.verify",
  disableAuthUser: "auth_user.disable",
  enableAuthUser: "auth_user.enable",
  sendAuthUserReset: "auth_user.send_reset",
  endAuthUserSessions: "auth_user.sessions_end",
  resetAuthUserMfa: "auth_user.mfa_reset",
  updatePolicies: "policy.update",
  createKey: "key.create",
  regenerateKey: "key.regenerate",
  revokeKey: "key.revoke",
  addAccount: "account.create",
  disableAccount: "account.disable",
  enableAccount: "account.enable",
  resetAccountPassword: "account.password_reset",
  changeOwnPassword: "account.password_change",
  endAllSessions: "account.sessions_end",
  updateSettings: "settings.update",
  sendTestMail: "mail.test",
  putPlan: "plan.update",
  setAccountPlan: "account.plan_update",
  grantCredits: "credits.grant",
  billingWebhook: "credits.purchase",
  createInvite: "invite.create",
  revokeInvite: "invite.revoke",
  acceptInvite: "invite.accept",
  updateMember: "member.update",
  removeMember: "member.remove",
  createAiBuild: "ai_build.create",
  applyAiBuild: "ai_build.apply",
  editAiBuildPlan: "ai_build.edit",
  createBackup: "backup.create",
  putBackupSchedule: "backup.schedule",
  restoreBackup: "backup.restore",
  cloneDatabase: "database.clone",
  applyDefinition: "definition.apply",
  updateHooks: "hooks.update",
  updateDocsSettings: "docs.update",
  verifyDocsDomain: "docs.verify",
  createWebhook: "webhook.create",
  updateWebhook: "webhook.update",
  deleteWebhook: "webhook.delete",
  testWebhook: "webhook.test",
  redeliverWebhookDelivery: "webhook.redeliver",
  createView: "view.create",
  updateView: "view.update",
  deleteView: "view.delete",
};

/** Write routes that change nothing, with the reason. */
export const NOT_AUDITED: Record<string, string> = {
  previewJoin: "a preview: runs the join's query and stores nothing",
  testAsUser: "a dry run: reads rows as a user would and stores nothing",
  tryHooks: "a dry run: evaluates the stored hooks on a sample row and writes nothing, not even a log",
  runSql: "a read-only query through the SQL console; nothing can be changed through it",
  planDefinition: "a plan: lists the changes a definition would make and applies none",
};

const BODY_NAME_KEYS = ["name", "email", "path"] as const;

/** The entry's target: the path's names after the database (`orders.price`), a created thing's name from the body. */
const targetOf = (route: Route, input: Record<string, unknown>) => {
  const names = route.path
    .split("/")
    .filter((part) => part.startsWith(":") && part !== ":instance")
    .map((part) => String(input[part.slice(1)]));
  const body = input.body as Record<string, unknown> | undefined;
  const created = route.method === "POST" && body && BODY_NAME_KEYS.map((k) => body[k]).find((v) => typeof v === "string");
  if (typeof created === "string") names.push(created);
  return names.join(".") || (typeof input.instance === "string" ? input.instance : route.path);
};

type SlotInput = { route: Route; input: Record<string, unknown>; ctx: Ctx; via: AuditSlot["via"]; ip?: string };

/** The pending entry of an authorized write, or undefined for a route that records nothing (NOT_AUDITED). */
export const auditSlotFor = ({ route, input, ctx, via, ip }: SlotInput): AuditSlot | undefined => {
  if (route.method === "GET" || route.operationId in NOT_AUDITED) return undefined;
  const action = AUDIT_ACTIONS[route.operationId];
  if (!action) throw new Error(`${route.operationId} is a write route with no audit action: add it to AUDIT_ACTIONS or NOT_AUDITED (lib/mgmt/audit-actions.ts)`);
  const { actor } = ctx;
  const own = route.permission.startsWith("account:") || route.permission === "authenticated";
  const schema = ctx.database?.schema;
  return {
    action,
    via,
    actorId: actor.accountId || null,
    ip: ip ?? null,
    workspaceId: ctx.workspaceId ?? (own ? actor.accountId : null),
    databaseId: schema?.id ?? null,
    database: schema?.instance ?? (typeof input.instance === "string" ? input.instance : null),
    target: targetOf(route, input),
    after: input.body,
    written: false,
  };
};
