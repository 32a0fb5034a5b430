// The state a management write replaces or removes, for its audit entry's `before`: read just before the service
// runs, through the GET route that shows that thing (the same view a client reads, so no secret it hides). A
// service that knows better (a column's definition, the settings) corrects it with noteAudit.
import type { Ctx } from "../meta/context";
import type { Route } from "./route";
import { ROUTES } from "./routes";

type Input = Record<string, unknown>;
type Reader = (ctx: Ctx, input: Input) => Promise<unknown>;

const run = (operationId: string, ctx: Ctx, input: Input) => {
  const route = ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return (route.run as (ctx: Ctx, input: Input) => Promise<unknown>)(ctx, { ...input, body: undefined, query: {} });
};

const ID_KEYS = ["id", "name", "account_id", "email"] as const;

/** The item of a list answer (an array, or an object holding one) whose id or name is `value`. */
const itemOf = (answer: unknown, value: unknown) => {
  const list = Array.isArray(answer) ? answer : Object.values((answer ?? {}) as object).find(Array.isArray);
  const matches = (item: Record<string, unknown>) => ID_KEYS.some((k) => item[k] !== undefined && String(item[k]) === String(value));
  // A member is shown as `{account: {id, email}, role}`.
  return (list as Record<string, unknown>[] | undefined)?.find((item) => matches(item) || (typeof item.account === "object" && item.account !== null && matches(item.account as Record<string, unknown>)));
};

/** The whole answer of a GET route. */
const shown = (operationId: string): Reader => (ctx, input) => run(operationId, ctx, input);
/** One item of a GET route's list (or a table's columns or indexes), by the write's path parameter. */
const itemIn = (operationId: string, param: string, part?: string): Reader => async (ctx, input) => {
  const answer = (await run(operationId, ctx, input)) as Record<string, unknown>;
  return itemOf(part ? answer[part] : answer, input[param]);
};

export const AUDIT_BEFORE: Record<string, Reader> = {
  updateDatabase: shown("getDatabase"),
  deleteDatabase: shown("getDatabase"),
  renameTable: shown("getTable"),
  deleteTable: shown("getTable"),
  deleteColumn: itemIn("getTable", "column", "columns"),
  deleteIndex: itemIn("getTable", "index", "indexes"),
  updateJoin: shown("getJoin"),
  deleteJoin: shown("getJoin"),
  updateAuth: shown("getAuth"),
  rotateAuthSecret: shown("getAuth"),
  verifyAuthUser: itemIn("listAuthUsers", "user"),
  disableAuthUser: itemIn("listAuthUsers", "user"),
  enableAuthUser: itemIn("listAuthUsers", "user"),
  endAuthUserSessions: itemIn("listAuthUsers", "user"),
  updatePolicies: shown("getPolicies"),
  updateHooks: shown("getHooks"),
  updateDocsSettings: shown("getDocsSettings"),
  putBackupSchedule: shown("getBackupSchedule"),
  deleteView: itemIn("listViews", "view"),
  regenerateKey: itemIn("listKeys", "id"),
  revokeKey: itemIn("listKeys", "id"),
  disableAccount: itemIn("listAccounts", "account"),
  enableAccount: itemIn("listAccounts", "account"),
  resetAccountPassword: itemIn("listAccounts", "account"),
  setAccountPlan: itemIn("listAccounts", "account"),
  changeOwnPassword: shown("getAccount"),
  endAllSessions: shown("getAccount"),
  putPlan: itemIn("listPlans", "plan"),
  updateMember: itemIn("listMembers", "account"),
  removeMember: itemIn("listMembers", "account"),
  revokeInvite: itemIn("listInvites", "invite"),
  editAiBuildPlan: shown("getAiBuild"),
};

/** Fills the pending entry's `before` for a write that replaces or removes something; a thing that cannot be read (not there: the service answers 404) leaves it empty. */
export const noteBefore = async (route: Route, ctx: Ctx, input: Input) => {
  const read = AUDIT_BEFORE[route.operationId];
  if (!ctx.audit || !read) return;
  const before = await read(ctx, input).catch(() => undefined);
  if (before !== undefined) ctx.audit.before = before;
};
