import { encryptKey, generateSecretKey, hashSecretKey } from "../../keys/key-crypto";
import { ApiError } from "../../errors";
import { roleAllows } from "../../teams/permissions";
import { workspaceRole } from "../../teams/roles";
import type { z } from "zod";
import type { KeyCreate } from "../../contract/schemas/keys";
import { type Ctx, nowIso } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { keyView } from "./key-view";

export type CreateKeyInput = { body: z.output<typeof KeyCreate> };

/** POST /keys `{name, database?}`: no database = account-wide (every database the account can reach). */
export const createKey = async (ctx: Ctx, { body }: CreateKeyInput) => {
  const instance = body.database ?? null;
  const database = instance ? (await getDatabaseOrThrow(ctx, instance)).schema : null;
  // A key for one database acts there without a session: only its owner or an admin may mint one.
  const role = database && (await workspaceRole(ctx.app.engine.meta, database.ownerId, ctx.actor.accountId));
  if (role && !roleAllows(role, "database:admin")) throw new ApiError("forbidden", `Your role on this database (${role}) cannot create keys for it; an admin or the owner can.`);
  return insertKey(ctx, { name: (body.name ?? "API key").trim(), databaseId: database?.id ?? null, instance });
};

/** Stores a new key (hash for lookup, ciphertext for its owner) and returns its view with the secret. */
export const insertKey = async (ctx: Ctx, input: { name: string; databaseId: number | null; instance: string | null }) => {
  const { app } = ctx;
  const secret = generateSecretKey();
  const row = {
    account_id: ctx.actor.accountId,
    database_id: input.databaseId,
    name: input.name,
    key_hash: hashSecretKey(secret),
    key_enc: encryptKey(app.secret, secret),
    created_at: nowIso(),
    revoked_at: null,
  };
  noteAudit(ctx, { databaseId: input.databaseId, database: input.instance, target: input.name });
  const id = await commitMeta({ app, audit: ctx.audit }, { kind: "keys" }, async (trx) => Number((await trx.insertInto("api_keys").values(row).executeTakeFirstOrThrow()).insertId));
  return keyView(app, { ...row, id }, input.instance);
};
