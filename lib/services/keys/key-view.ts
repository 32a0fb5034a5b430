import type { App } from "../../app-type";
import { decryptKey } from "../../keys/key-crypto";

type KeyRow = { id: number; name: string; key_enc: string; database_id: number | null; created_at: string };

/** A key as its owner sees it: the full secret (decrypted) and the instance it is limited to. */
export const keyView = (app: App, row: KeyRow, instance: string | null) => ({
  id: row.id,
  name: row.name,
  key: decryptKey(app.secret, row.key_enc),
  database: instance,
  created_at: row.created_at,
});
