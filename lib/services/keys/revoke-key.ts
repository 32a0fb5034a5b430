import { type Ctx, nowIso } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { getKeyOrThrow } from "./get-key-or-throw";

export type RevokeKeyInput = { id: number };

/** DELETE /keys/{id}: the key stops working at once (in every process within one metadata check). */
export const revokeKey = async (ctx: Ctx, { id }: RevokeKeyInput) => {
  const row = await getKeyOrThrow(ctx, id);
  await commitMeta(ctx, { kind: "keys" }, (trx) => trx.updateTable("api_keys").set({ revoked_at: nowIso() }).where("id", "=", row.id).execute());
};
