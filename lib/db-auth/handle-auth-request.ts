// /v1/{db}/auth/login, /auth/signup and /auth/me: the way in for browser and mobile users (docs/api.md).
import bcrypt from "bcrypt";
import type { App } from "../app-type";
import { authenticate } from "../api/authenticate";
import { selectByIdSql, selectPageSql } from "../api/build-sql";
import { runWrite } from "../api/write/run-write";
import { FULL_ACCESS } from "../rls/access";
import { indexTable, type TableIndex, toRecord } from "../api/table-index";
import { ApiError, type FieldError, methodNotAllowed, notFound, unauthorized, validationFailed } from "../errors";
import { type CoreRequest, type CoreResponse, json } from "../http/core-types";
import { parseJsonBody } from "../http/parse-json-body";
import type { DatabaseAuth } from "../schema/types";
import type { LoadedDatabase } from "../meta/schema-cache";

import { signUserToken } from "./user-token";
import { signInLimited } from "../auth/sign-in-limiter";
import { isSecret } from "../schema/type-traits";

export const AUTH_VERBS: Record<string, string> = { login: "POST", signup: "POST", me: "GET" };

// One message for an unknown login and a wrong password, so the reply cannot tell which it was.
const BAD_CREDENTIALS = "The login or password is wrong.";
// Compared against when the login is unknown, so both cases cost one bcrypt comparison of the same cost.
const dummyHashes = new Map<number, string>();
const dummyHash = (cost: number) => {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = bcrypt.hashSync("tabula-no-such-user", cost)));
  return hash;
};

type Enabled = LoadedDatabase & { auth: DatabaseAuth };

/** Unknown database and auth switched off read the same, so the path cannot probe for databases. */
const requireAuth = (database: LoadedDatabase | undefined): Enabled => {
  if (!database?.auth?.enabled || !database.schema.tables.has(database.auth.users_table)) throw notFound("Database auth is not enabled for this database.");
  return database as Enabled;
};

/** The user as the auth endpoints show it: the record without its password columns. */
export const publicUser = (index: TableIndex, row: Record<string, unknown>) => {
  const record = toRecord(index, row);
  for (const c of index.table.columns) if (isSecret(c)) delete record[c.name];
  return record;
};

const readCredentials = ({ auth }: Enabled, body: unknown) => {
  const { login_column: loginColumn } = auth;
  const b = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (typeof b[loginColumn] !== "string" || b[loginColumn] === "") errors.push({ field: loginColumn, code: "required", message: `"${loginColumn}" is required` });
  if (typeof b.password !== "string" || b.password === "") errors.push({ field: "password", code: "required", message: '"password" is required' });
  if (errors.length) throw validationFailed(errors);
  return { login: b[loginColumn] as string, password: b.password as string, body: b };
};

const findUserByLogin = async (app: App, { schema, auth }: Enabled, index: TableIndex, login: string) => {
  const udb = app.engine.userDb(schema.physical);
  const column = index.byName.get(auth.login_column)!;
  const query = { filters: [{ column, op: "eq" as const, value: login }], sort: [], limit: 1, offset: 0 };
  const { rows } = await selectPageSql(udb, index.table.name, index.all, query).execute(udb.db);
  return rows[0] as Record<string, unknown> | undefined;
};

const findUserById = async (app: App, { schema }: Enabled, index: TableIndex, id: number) => {
  const udb = app.engine.userDb(schema.physical);
  const { rows } = await selectByIdSql(udb, index.table.name, index.all, id).execute(udb.db);
  return rows[0] as Record<string, unknown> | undefined;
};

const grant = async (database: Enabled, index: TableIndex, row: Record<string, unknown>, status = 200) =>
  json(status, { ...(await signUserToken(database, Number(row.id))), user: publicUser(index, row) }, { "cache-control": "no-store" });

const login = async (app: App, req: CoreRequest, database: Enabled): Promise<CoreResponse> => {
  const { schema, auth } = database;
  const { login, password } = readCredentials(database, parseJsonBody(req));
  const attempt = { realm: `db:${schema.id}`, login, address: req.clientAddress };
  const wait = await app.signInLimiter.count(attempt);
  if (wait) throw signInLimited(wait);
  const index = indexTable(schema.tables.get(auth.users_table)!);
  const row = await findUserByLogin(app, database, index, login);
  const hash = row?.[auth.password_column];
  const matches = await bcrypt.compare(password, typeof hash === "string" && hash.startsWith("$2") ? hash : dummyHash(app.config.bcryptCost));
  if (!row || !matches || typeof hash !== "string") throw unauthorized(BAD_CREDENTIALS);
  await app.signInLimiter.forgive(attempt);
  return grant(database, index, row);
};

/** Sign-up takes the login and the password only; other columns take their defaults (profile data is a PATCH away). */
const signup = async (app: App, req: CoreRequest, database: Enabled): Promise<CoreResponse> => {
  const { schema, auth } = database;
  if (!auth.signup) throw new ApiError("forbidden", "Sign-up is closed for this database.");
  const { login, password, body } = readCredentials(database, parseJsonBody(req));
  const attempt = { realm: `db:${schema.id}`, login, address: req.clientAddress };
  const wait = await app.signInLimiter.count(attempt);
  if (wait) throw signInLimited(wait);
  const extra = Object.keys(body).filter((k) => k !== auth.login_column && k !== "password");
  if (extra.length) throw validationFailed(extra.map((k) => ({ field: k, code: "unknown_property", message: `sign-up takes only "${auth.login_column}" and "password"` })));
  if ([...password].length < 8 || Buffer.byteLength(password) > 72) throw validationFailed([{ field: "password", code: "out_of_range", message: "the password must be 8 to 72 bytes long" }]);
  const index = indexTable(schema.tables.get(auth.users_table)!);
  // The same write kernel as POST /{table}: validation, the statement, reference checks and the read-back.
  const record = { [auth.login_column]: login, [auth.password_column]: password };
  const [user] = await runWrite({ app, udb: app.engine.userDb(schema.physical), index, access: FULL_ACCESS, action: "create", body: record });
  await app.signInLimiter.forgive(attempt);
  return grant(database, index, (await findUserById(app, database, index, Number(user.id)))!, 201);
};

const me = async (app: App, req: CoreRequest, database: Enabled): Promise<CoreResponse> => {
  const caller = await authenticate(app, req, database);
  if (caller.kind !== "user") throw new ApiError("forbidden", "/auth/me needs a user's token, not a secret key.");
  const index = indexTable(database.schema.tables.get(database.auth.users_table)!);
  const row = await findUserById(app, database, index, caller.userId);
  if (!row) throw unauthorized("The user of this token no longer exists.");
  return json(200, publicUser(index, row), { "cache-control": "no-store" });
};

/** Serves /auth/{login|signup|me}; `rest` is the path after /auth. */
export const handleAuthRequest = async (app: App, req: CoreRequest, database: LoadedDatabase | undefined, rest: string[]): Promise<CoreResponse> => {
  const action = rest.length === 1 ? rest[0] : "";
  const verb = AUTH_VERBS[action];
  if (!verb) throw notFound("No such path; use /auth/login, /auth/signup or /auth/me.");
  const enabled = requireAuth(database);
  if (req.method !== verb) throw methodNotAllowed([verb]);
  if (action === "login") return login(app, req, enabled);
  if (action === "signup") return signup(app, req, enabled);
  return me(app, req, enabled);
};
