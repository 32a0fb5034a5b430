import type { z } from "zod";
import type { Ctx, DbCtx } from "../meta/context";
import type { QuotaInputs, QuotaKind } from "../plans/quotas";
import type { Permission } from "../teams/permissions";
import type { PathParamValue } from "../contract/schemas/path-params";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export const TAGS = {
  Databases: "Databases: each one its own MySQL schema or SQLite file, with its own data API.",
  Tables: "Tables of a database; each is a path of the data API.",
  Columns: "Columns of a table (id, created_at and updated_at are automatic).",
  Joins: "Joins: several tables merged into one read-only data API path.",
  Auth: "Database auth (users log in and get a JWT) and Row Level Security policies.",
  Keys: "Secret keys for the data and management APIs.",
  Accounts: "Accounts of this install and who may sign up.",
  Plans: "Plans and their limits, one-time credits and the billing webhook that grants them.",
  Hooks: "Pre hooks: CEL steps that compute values and check rows before a write, with their logs.",
  AI: "The AI builder: one sentence to a planned (and applied) database, with the build history.",
  Team: "Members of your workspace (all your databases) with a role each, and the invites that add them.",
  SQL: "A read-only SQL console over one database's tables, for its owners and admins.",
  Docs: "A database's public API docs, and the custom domain (CNAME + TXT, verified by DNS) that serves them.",
  Backups: "Backups (one consistent point in time, restorable on either engine), restores, clones, and the definition as code.",
  Audit: "The audit log: every management change and dashboard sign-in, who made it, from where, and what changed; kept AUDIT_DAYS.",
  Webhooks: "Webhooks: a database's change events POSTed to your URL, signed (Standard Webhooks) and retried, with a deliveries log.",
} as const;

export type Tag = keyof typeof TAGS;

/** `databases/:instance/webhooks/:webhook` → { instance: string; webhook: number }, as lib/contract/schemas/path-params.ts parses them. */
type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: PathParamValue<K> } & PathParams<Rest>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: PathParamValue<K> }
    : unknown;

type BodyOf<B> = B extends z.ZodType ? { body: z.output<B> } : { archive?: AsyncIterable<Uint8Array> };
type QueryOf<Q> = Q extends z.ZodType ? { query: z.output<Q> } : unknown;

/** What a route's run receives: its parsed path params, and its parsed body and query when it declares them. */
export type RouteInput<P extends string, B, Q> = PathParams<P> & BodyOf<B> & QueryOf<Q>;

/** Errors a route's service can raise beyond those its shape implies (401, 403, 404 on path params, 422 on input). */
export type ServiceError = "not_found" | "conflict" | "gone" | "ai" | "quota";

/** Where a workspace route may name another workspace: a declared schema whose output has `workspace?: number`. */
type WorkspaceSource<B, Q> =
  | (Q extends z.ZodType ? ("workspace" extends keyof z.output<Q> ? (z.output<Q>["workspace"] extends number | undefined ? "query" : never) : never) : never)
  | (B extends z.ZodType ? ("workspace" extends keyof z.output<B> ? (z.output<B>["workspace"] extends number | undefined ? "body" : never) : never) : never);

/** The quotas a route may declare: those whose input (lib/plans/quotas.ts) its parsed input provides. */
type QuotaFor<I> = { [K in QuotaKind]: I extends QuotaInputs[K] ? K : never }[QuotaKind];

type Described<P extends string, B, Q> = {
  method: Method;
  /** Segments after /api/v1; `:name` captures one. */
  path: P;
  /** Required: the route table's permission test fails for a route without one. */
  permission: Permission;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  body?: B;
  query?: Q;
  errors?: ServiceError[];
  /** Workspace routes: where a workspace other than the caller's own is named (`?workspace=` or the body's `workspace`), as parsed. */
  workspaceFrom?: WorkspaceSource<B, Q>;
  /** `body`: the request body is a stream (a backup archive) handed to run as `archive`; `response`: run answers a StreamedBody (a download). */
  binary?: "body" | "response";
  /** Database routes that a key limited to one database may not call (it would act beyond a key: as a user). */
  noDatabaseKeys?: true;
  /** A metered use: the kernel checks it against the caller's plan and credits inside the service's transaction (402). */
  quota?: QuotaFor<RouteInput<P, B, Q>>;
  /** A database route's service gets the database authorize loaded (`ctx.database`). */
  run: (ctx: P extends `${string}:instance${string}` ? DbCtx : Ctx, input: RouteInput<P, B, Q>) => Promise<unknown>;
};

export type RouteSpec<P extends string, B, Q> = Described<P, B, Q> &
  ({ status: 200 | 201 | 202; response: z.ZodType } | { status: 204; response?: undefined });

export type Route = Omit<RouteSpec<string, z.ZodType | undefined, z.ZodObject | undefined>, "workspaceFrom" | "quota"> & {
  workspaceFrom?: "query" | "body";
  quota?: QuotaKind;
  run: (ctx: Ctx, input: Record<string, unknown>) => Promise<unknown>;
};

export const defineRoute = <P extends string, B extends z.ZodType | undefined = undefined, Q extends z.ZodObject | undefined = undefined>(
  spec: RouteSpec<P, B, Q>,
): Route => spec as unknown as Route;
