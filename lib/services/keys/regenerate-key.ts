import { encryptKey, generateSecretKey, hashSecretKey } from "../../keys/key-crypto";
import type { Ctx } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { getKeyOrThrow } from "./get-key-or-throw";
import { keyView } from "./key-view";

export type RegenerateKeyInput = { id: number };

/** POST /keys/{id}/regenerate: same key record, new secret; the old secret stops working at once. */
export const regenerateKey = async (ctx: Ctx, { id }: RegenerateKeyInput) => {
  const row = await getKeyOrThrow(ctx, id);
  const { app } = ctx;
  const secret = generateSecretKey();
  const key_enc = encryptKey(app.secret, secret);
  await commitMeta(ctx, { kind: "keys" }, (trx) => trx.updateTable("api_keys").set({ key_hash: hashSecretKey(secret), key_enc }).where("id", "=", row.id).execute());
  return keyView(app, { ...row, key_enc }, row.instance ?? null);
};
