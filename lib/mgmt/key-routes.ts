import { z } from "zod";
import { createKey } from "../services/keys/create-key";
import { listKeys } from "../services/keys/list-keys";
import { regenerateKey } from "../services/keys/regenerate-key";
import { revokeKey } from "../services/keys/revoke-key";
import { defineRoute } from "./route";
import { Key, KeyCreate } from "../contract/schemas/keys";

export const KEY_ROUTES = [
  defineRoute({
    method: "GET", path: "keys", permission: "account:read", tag: "Keys", operationId: "listKeys",
    summary: "List secret keys", description: "The account's active secret keys, newest first.",
    status: 200, response: z.array(Key),
    run: (ctx) => listKeys(ctx, {}),
  }),
  defineRoute({
    method: "POST", path: "keys", permission: "account:write", tag: "Keys", operationId: "createKey",
    summary: "Create a secret key", description: "A key for one database, or account-wide without `database`. A database the account cannot reach is 404; on a shared database only an admin (or its owner) may create one, a viewer or editor is 403.",
    body: KeyCreate, status: 201, response: Key, errors: ["not_found"],
    run: (ctx, { body }) => createKey(ctx, { body }),
  }),
  defineRoute({
    method: "POST", path: "keys/:id/regenerate", permission: "account:write", tag: "Keys", operationId: "regenerateKey",
    summary: "Regenerate a secret key", description: "Replaces the key's secret; the old one stops working at once.",
    status: 200, response: Key,
    run: (ctx, { id }) => regenerateKey(ctx, { id }),
  }),
  defineRoute({
    method: "DELETE", path: "keys/:id", permission: "account:write", tag: "Keys", operationId: "revokeKey",
    summary: "Revoke a secret key", description: "The key stops working at once.",
    status: 204,
    run: (ctx, { id }) => revokeKey(ctx, { id }),
  }),
];
