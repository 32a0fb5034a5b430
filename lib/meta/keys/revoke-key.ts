import { bumpMetaVersion, type Ctx, nowIso } from "../context";
import { getKeyOrThrow } from "./get-key-or-throw";
import { metaTransaction } from "../../db/meta-transaction";

export type RevokeKeyInput = { id: string };

/** DELETE /keys/{id}: the key stops working at once (in every process within one metadata check). */
export const revokeKey = async (ctx: Ctx, { id }: RevokeKeyInput) => {
  const row = await getKeyOrThrow(ctx, id);
  await metaTransaction(ctx.app.engine.meta, async (trx) => {
    await trx.updateTable("api_keys").set({ revoked_at: nowIso() }).where("id", "=", row.id).execute();
    await bumpMetaVersion(trx);
  });
  ctx.app.events.publish({ kind: "keys" });
};
