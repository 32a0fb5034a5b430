// GET …/definition, POST …/definition/plan and …/definition/apply: the definition as code, planned against the
// live database and applied change by change through the services (lossy ones only when allowed).
import { commitAuditOnly } from "../meta/commit-meta";
import { ApiError } from "../errors";
import type { DbCtx } from "../meta/context";
import { databaseCtx } from "../services/databases/database-ctx";
import { parseDefinition } from "./create-from-definition";
import { diffDefinitions, planFor } from "./plan-definition";
import { refuseDrops } from "./refuse-drops";
import { type Definition, readDefinition } from "./read-definition";
import { maskProviders } from "../services/auth/provider-secrets";
import type { AuthSettings } from "../schema/types";
import { logger } from "../ops/logger";

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

/**
 * Applies the plan in order; a lossy plan without `allow_lossy: true` is a 422 listing its lossy changes, with
 * nothing applied. All or nothing: each change commits on its own (MariaDB commits DDL anyway), so when one
 * fails the changes made so far are undone by planning the definition read before the first one and applying
 * that, and the first failure is answered. Drops run last, so no value is gone before every other change held, and
 * every drop is checked before the first runs (refuseDrops): a value dropped cannot be brought back.
 */
export const applyDefinition = async (ctx: DbCtx, { instance, body }: { instance: string; body: DefinitionBody }) => {
  const before = await readDefinition(ctx.app, ctx.database);
  const changes = diffDefinitions(before, parseDefinition(body, "body"));
  const lossy = changes.filter((c) => c.lossy);
  if (lossy.length && body.allow_lossy !== true) {
    throw new ApiError("validation_failed", `The plan has ${lossy.length} lossy change${lossy.length === 1 ? "" : "s"}; send "allow_lossy": true to apply it.`, {
      errors: lossy.map((c) => ({ field: "allow_lossy", code: "lossy_change", message: `${c.action} ${c.target}: ${c.detail}` })),
    });
  }
  let db = ctx;
  let applied = 0;
  const drops = changes.filter((c) => c.drop);
  try {
    for (const change of changes) {
      if (change === drops[0]) refuseDrops(db.database, drops);
      await change.run(db);
      applied++;
      db = await databaseCtx(ctx, instance);
    }
  } catch (err) {
    if (applied > 0) await undoApply(ctx, instance, before);
    throw err;
  }
  // The same definition twice: nothing to change, and the call is still recorded.
  if (changes.length === 0) await commitAuditOnly(ctx);
  return planView(changes);
};

/** Brings the database back to `before` (what it was when the apply began); a failure here is logged, the apply's own is answered. */
const undoApply = async (ctx: DbCtx, instance: string, before: Definition) => {
  try {
    let db = await databaseCtx(ctx, instance);
    for (const change of diffDefinitions(await readDefinition(ctx.app, db.database), parseDefinition(before))) {
      await change.run(db);
      db = await databaseCtx(ctx, instance);
    }
  } catch (err) {
    logger.error({ err, instance }, "undoing a definition apply failed");
  }
};
