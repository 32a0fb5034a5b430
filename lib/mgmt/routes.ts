import type { CoreRequest, CoreResponse } from "../http/core-types";
import { json, noContent } from "../http/core-types";
import { parseJsonBody } from "../http/parse-json-body";
import type { Ctx } from "../meta/context";
import { addColumn } from "../meta/columns/add-column";
import { dropColumn } from "../meta/columns/drop-column";
import { updateColumn } from "../meta/columns/update-column";
import { createDatabase } from "../meta/databases/create-database";
import { deleteDatabase } from "../meta/databases/delete-database";
import { getDatabase } from "../meta/databases/get-database";
import { listDatabases } from "../meta/databases/list-databases";
import { updateDatabase } from "../meta/databases/update-database";
import { createKey } from "../meta/keys/create-key";
import { listKeys } from "../meta/keys/list-keys";
import { regenerateKey } from "../meta/keys/regenerate-key";
import { revokeKey } from "../meta/keys/revoke-key";
import { createTable } from "../meta/tables/create-table";
import { dropTable } from "../meta/tables/drop-table";
import { getTable } from "../meta/tables/get-table";
import { listTables } from "../meta/tables/list-tables";
import { updateTable } from "../meta/tables/update-table";
import { addAccount, getCurrentAccount, listAccounts } from "../auth/sign-up";
import { getSettings, updateSettings } from "../settings/update-settings";
import { createJoin } from "../meta/joins/create-join";
import { deleteJoin } from "../meta/joins/delete-join";
import { getJoin } from "../meta/joins/get-join";
import { listJoins } from "../meta/joins/list-joins";
import { previewJoin } from "../meta/joins/preview-join";
import { updateJoin } from "../meta/joins/update-join";

import { getAuth } from "../meta/auth/get-auth";
import { impersonateUser } from "../meta/auth/impersonate-user";
import { rotateAuthSecret } from "../meta/auth/rotate-auth-secret";
import { testAsUser } from "../meta/auth/test-as-user";
import { updateAuth } from "../meta/auth/update-auth";
import { getPolicies } from "../meta/policies/get-policies";
import { updatePolicies } from "../meta/policies/update-policies";

type Params = Record<string, string>;
export type Route = {
  method: string;
  /** Segments after /api/v1; `:name` captures one. */
  path: string;
  run: (ctx: Ctx, p: Params, req: CoreRequest) => Promise<CoreResponse>;
};

const created = (value: unknown) => json(201, value);
const ok = (value: unknown) => json(200, value);
const done = () => noContent();

const DB = "databases/:instance";
const TABLE = `${DB}/tables/:table`;

export const ROUTES: Route[] = [
  { method: "GET", path: "databases", run: async (ctx, _p, req) => ok(await listDatabases(ctx, { query: Object.fromEntries(req.query) })) },
  { method: "POST", path: "databases", run: async (ctx, _p, req) => created(await createDatabase(ctx, { body: parseJsonBody(req) })) },
  { method: "GET", path: DB, run: async (ctx, p) => ok(await getDatabase(ctx, { instance: p.instance })) },
  { method: "PATCH", path: DB, run: async (ctx, p, req) => ok(await updateDatabase(ctx, { instance: p.instance, body: parseJsonBody(req) })) },
  { method: "DELETE", path: DB, run: async (ctx, p) => (await deleteDatabase(ctx, { instance: p.instance }), done()) },
  { method: "GET", path: `${DB}/tables`, run: async (ctx, p) => ok(await listTables(ctx, { instance: p.instance })) },
  { method: "POST", path: `${DB}/tables`, run: async (ctx, p, req) => created(await createTable(ctx, { instance: p.instance, body: parseJsonBody(req) })) },
  { method: "GET", path: TABLE, run: async (ctx, p) => ok(await getTable(ctx, { instance: p.instance, table: p.table })) },
  { method: "PATCH", path: TABLE, run: async (ctx, p, req) => ok(await updateTable(ctx, { instance: p.instance, table: p.table, body: parseJsonBody(req) })) },
  { method: "DELETE", path: TABLE, run: async (ctx, p) => (await dropTable(ctx, { instance: p.instance, table: p.table }), done()) },
  { method: "POST", path: `${TABLE}/columns`, run: async (ctx, p, req) => created(await addColumn(ctx, { instance: p.instance, table: p.table, body: parseJsonBody(req) })) },
  { method: "PATCH", path: `${TABLE}/columns/:column`, run: async (ctx, p, req) => ok(await updateColumn(ctx, { instance: p.instance, table: p.table, column: p.column, body: parseJsonBody(req) })) },
  { method: "DELETE", path: `${TABLE}/columns/:column`, run: async (ctx, p) => (await dropColumn(ctx, { instance: p.instance, table: p.table, column: p.column }), done()) },
  { method: "GET", path: "keys", run: async (ctx) => ok(await listKeys(ctx, {})) },
  { method: "POST", path: "keys", run: async (ctx, _p, req) => created(await createKey(ctx, { body: parseJsonBody(req) })) },
  { method: "POST", path: "keys/:id/regenerate", run: async (ctx, p) => ok(await regenerateKey(ctx, { id: p.id })) },
  { method: "DELETE", path: "keys/:id", run: async (ctx, p) => (await revokeKey(ctx, { id: p.id }), done()) },
  { method: "GET", path: "account", run: async (ctx) => ok(await getCurrentAccount(ctx, {})) },
  { method: "GET", path: "accounts", run: async (ctx) => ok(await listAccounts(ctx, {})) },
  { method: "POST", path: "accounts", run: async (ctx, _p, req) => created(await addAccount(ctx, { body: parseJsonBody(req) })) },
  { method: "GET", path: "settings", run: async (ctx) => ok(await getSettings(ctx, {})) },
  { method: "PATCH", path: "settings", run: async (ctx, _p, req) => ok(await updateSettings(ctx, { body: parseJsonBody(req) })) },
  { method: "GET", path: `${DB}/joins`, run: async (ctx, p) => ok(await listJoins(ctx, { instance: p.instance })) },
  { method: "POST", path: `${DB}/joins`, run: async (ctx, p, req) => created(await createJoin(ctx, { instance: p.instance, body: parseJsonBody(req) })) },
  { method: "POST", path: `${DB}/joins/preview`, run: async (ctx, p, req) => ok(await previewJoin(ctx, { instance: p.instance, body: parseJsonBody(req) })) },
  { method: "GET", path: `${DB}/joins/:join`, run: async (ctx, p) => ok(await getJoin(ctx, { instance: p.instance, join: p.join })) },
  { method: "PATCH", path: `${DB}/joins/:join`, run: async (ctx, p, req) => ok(await updateJoin(ctx, { instance: p.instance, join: p.join, body: parseJsonBody(req) })) },
  { method: "DELETE", path: `${DB}/joins/:join`, run: async (ctx, p) => (await deleteJoin(ctx, { instance: p.instance, join: p.join }), done()) },
  { method: "GET", path: `${DB}/auth`, run: async (ctx, p) => ok(await getAuth(ctx, { instance: p.instance })) },
  { method: "PUT", path: `${DB}/auth`, run: async (ctx, p, req) => ok(await updateAuth(ctx, { instance: p.instance, body: parseJsonBody(req) })) },
  { method: "POST", path: `${DB}/auth/rotate-secret`, run: async (ctx, p) => ok(await rotateAuthSecret(ctx, { instance: p.instance })) },
  { method: "POST", path: `${DB}/auth/impersonate`, run: async (ctx, p, req) => ok(await impersonateUser(ctx, { instance: p.instance, body: parseJsonBody(req) })) },
  { method: "POST", path: `${DB}/auth/test-as-user`, run: async (ctx, p, req) => ok(await testAsUser(ctx, { instance: p.instance, body: parseJsonBody(req) })) },
  { method: "GET", path: `${TABLE}/policies`, run: async (ctx, p) => ok(await getPolicies(ctx, { instance: p.instance, table: p.table })) },
  { method: "PUT", path: `${TABLE}/policies`, run: async (ctx, p, req) => ok(await updatePolicies(ctx, { instance: p.instance, table: p.table, body: parseJsonBody(req) })) },
];

/** Matches segments against a route path; returns the captured params or undefined. */
export const matchPath = (path: string, segments: string[]): Params | undefined => {
  const parts = path.split("/");
  if (parts.length !== segments.length) return undefined;
  const params: Params = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(":")) params[parts[i].slice(1)] = segments[i];
    else if (parts[i] !== segments[i]) return undefined;
  }
  return params;
};
