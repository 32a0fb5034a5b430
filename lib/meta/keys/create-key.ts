import { encryptKey, generateSecretKey, hashSecretKey } from "../../keys/key-crypto";
import { type FieldError, validationFailed } from "../../errors";
import { type Ctx, nowIso } from "../context";
import { commitMeta } from "../commit-meta";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { keyView } from "./key-view";

const KEY_FIELDS = new Set(["name", "database"]);

export type CreateKeyInput = { body: unknown };

/** POST /keys `{name, database?}`: no database = account-wide (every database the account can reach). */
export const createKey = async (ctx: Ctx, { body: input }: CreateKeyInput) => {
  const body = (input ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    errors.push({ field: "body", code: "invalid_type", message: "the body must be a JSON object" });
  }
  for (const key of Object.keys(body)) {
    if (!KEY_FIELDS.has(key)) errors.push({ field: key, code: "unknown_property", message: `unknown property "${key}"` });
  }
  const name = body.name ?? "API key";
  if (typeof name !== "string" || name.trim() === "" || name.length > 100) {
    errors.push({ field: "name", code: "invalid_name", message: "name must be text of 1 to 100 characters" });
  }
  if (body.database !== undefined && body.database !== null && typeof body.database !== "string") {
    errors.push({ field: "database", code: "invalid_type", message: "database must be a database instance name or null" });
  }
  if (errors.length) throw validationFailed(errors);
  const instance = (body.database as string | null | undefined) ?? null;
  const database = instance ? await getDatabaseOrThrow(ctx, instance) : null;
  return insertKey(ctx, { name: (name as string).trim(), databaseId: database?.id ?? null, instance });
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
  const id = await commitMeta({ app }, { kind: "keys" }, async (trx) => Number((await trx.insertInto("api_keys").values(row).executeTakeFirstOrThrow()).insertId));
  return keyView(app, { ...row, id }, input.instance);
};
