// GET …/definition, POST …/definition/plan and …/definition/apply: the definition as code, planned against the
// live database and applied change by change through the services (lossy ones only when allowed).
import { commitAuditOnly } from "../meta/commit-meta";
import { ApiError } from "../errors";
import type { DbCtx } from "../meta/context";
import { databaseCtx } from "../services/databases/database-ctx";
import { parseDefinition } from "./create-from-definition";
import { planFor } from "./plan-definition";
import { readDefinition } from "./read-definition";
import { maskProviders } from "../services/auth/provider-secrets";
import type { AuthSettings } from "../schema/types";

type DefinitionBody = { tables?: unknown; joins?: unknown; auth?: unknown; allow_lossy?: boolean };

/** The definition as the API shows it: OAuth client secrets masked (backups keep them). */
export const getDefinition = async (ctx: DbCtx, _input: { instance: string }) => {
  const definition = await readDefinition(ctx.app, ctx.database);
  return { ...definition, auth: { ...definition.auth, providers: maskProviders((definition.auth.providers ?? []) as AuthSettings["providers"]) } };
};

const planView = (changes: Awaited<ReturnType<typeof planFor>>) => ({
  changes: changes.map(({ action, target, lossy, detail }) => ({ action, target, lossy, detail })),
  lossy: changes.some((c) => c.lossy),
});

export const planDefinition = async (ctx: DbCtx, { body }: { instance: string; body: DefinitionBody }) =>
  planView(await planFor(ctx, parseDefinition(body, "body")));

/** Applies the plan in order; a lossy plan without `allow_lossy: true` is a 422 listing its lossy changes, with nothing applied. */
export const applyDefinition = async (ctx: DbCtx, { instance, body }: { instance: string; body: DefinitionBody }) => {
  const changes = await planFor(ctx, parseDefinition(body, "body"));
  const lossy = changes.filter((c) => c.lossy);
  if (lossy.length && body.allow_lossy !== true) {
    throw new ApiError("validation_failed", `The plan has ${lossy.length} lossy change${lossy.length === 1 ? "" : "s"}; send "allow_lossy": true to apply it.`, {
      errors: lossy.map((c) => ({ field: "allow_lossy", code: "lossy_change", message: `${c.action} ${c.target}: ${c.detail}` })),
    });
  }
  let db = ctx;
  for (const change of changes) {
    await change.run(db);
    db = await databaseCtx(ctx, instance);
  }
  // The same definition twice: nothing to change, and the call is still recorded.
  if (changes.length === 0) await commitAuditOnly(ctx);
  return planView(changes);
};
