// The dashboard's view of the management API: every input and output type comes from the route table's
// zod schemas (lib/contract/schemas, which import no database code), so the two cannot drift apart.
import type { z } from "zod";
import type { DatabaseSummary, DatabaseListQuery as ListQuerySchema } from "@/lib/contract/schemas/databases";
import type { AccountPlanPatch as AccountPlanPatchSchema, CreditGrantCreate as GrantInput, PlanPut as PlanLimits } from "@/lib/contract/schemas/plans";
import type { Invite, InviteAccepted } from "@/lib/contract/schemas/team";
import type { AiBuild } from "@/lib/contract/schemas/ai";
import type { ColumnInput } from "@/lib/contract/schemas/columns";
import type { JoinDefinition } from "@/lib/contract/schemas/joins";
import type { HookLog, HookTry as HookTrySchema, Hooks } from "@/lib/contract/schemas/hooks";

export type { ColumnType } from "@/lib/schema/types";
export type { Column, ColumnInput, ColumnPatch, Index, IndexInput } from "@/lib/contract/schemas/columns";
export type { Database, DatabaseCreate, DatabaseSummary, Table, TableInput } from "@/lib/contract/schemas/databases";
export type { Key as ApiKey, KeyCreate } from "@/lib/contract/schemas/keys";
export type { Account, AccountCreate, PasswordChange, PasswordReset, PasswordResetResult, Settings, SettingsPatch, SignupMode } from "@/lib/contract/schemas/accounts";
export type { CreditGrant, CreditGrantCreate, CreditLedger, LedgerEntry, Plan, PlanPut } from "@/lib/contract/schemas/plans";
export type { Join, JoinDefinition, JoinInput, JoinPreview, JoinPreviewInput } from "@/lib/contract/schemas/joins";
export type { Invite, InviteAccepted, InviteCreate, Member, Workspace } from "@/lib/contract/schemas/team";
export type { AuditEntry } from "@/lib/contract/schemas/audit";
export type { AiBuild, AiBuildCreate, AiPlanner } from "@/lib/contract/schemas/ai";
export type { HookLog, Hooks, HookStep, HookTryResult } from "@/lib/contract/schemas/hooks";
export type { AuthSettings, AuthSettingsInput, Policies, PolicyAction, TestAsUserResult, UserToken } from "@/lib/contract/schemas/auth";
export type { AuthUser } from "@/lib/contract/schemas/auth-users";

export type AccountPlanPatch = z.input<typeof AccountPlanPatchSchema>;
export type MemberRole = PlanLimits["roles"][number];
export type CreditKind = GrantInput["kind"];
/** The caller's role on a database: `owner` of its workspace, or a member's role there. */
export type DatabaseRole = DatabaseSummary["role"];
/** `GET /databases` filters: scope (mine, shared, all), creator and workspace (account ids as text). */
export type DatabaseListQuery = z.input<typeof ListQuerySchema>;

/** What the public invite page reads before sign-in (`/api/session/invite?token=`). */
export type InviteInfo = InviteAccepted & Pick<Invite, "status" | "expires_at" | "email">;

/** What the sign-in page reads before anyone is signed in (`/api/session/status`, not the management API). */
export type SignupStatus = { has_accounts: boolean; first_run: boolean; signup: "open" | "operator" };

/** A record of the data API: id, the user's columns, created_at, updated_at. */
export type DataRecord = Record<string, unknown> & { id: number };

/** One tool call of the AI agent, as a build lists them. */
export type AiStep = AiBuild["steps"][number];
export type AiBuildStatus = AiBuild["status"];
/**
 * A build's plan, read with the types it is made of: the schema keeps plan columns and joins open records
 * (the model writes them), but they are column objects as `POST .../columns` takes them and joins in the
 * structured form, and the server validated them before the build became `planned`.
 */
export type AiPlanView = {
  name: string;
  tables: { name: string; columns: ColumnInput[] }[];
  joins: (JoinDefinition & { name: string })[];
  seed: Record<string, Record<string, unknown>[]>;
};

/** Which write a hook runs before. */
export type HookAction = HookLog["action"] & keyof Hooks;
export type HookRunStatus = HookLog["status"];
/** One step's outcome in a try or a logged run: the value it produced (`result`), or why it stopped (`error`). */
export type HookStepOutcome = HookLog["steps"][number];
export type HookTryInput = z.input<typeof HookTrySchema>;
/** The log filters the API takes; the action is filtered on the page. */
export type HookLogQuery = { table?: string; status?: HookRunStatus | ""; _limit?: number };
