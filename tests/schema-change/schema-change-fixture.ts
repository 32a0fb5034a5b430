// A database whose schema has every kind of dependent (reference columns, joins in both forms, row policies,
// database auth), a harness per suite, and readers of the metadata rows a schema change may touch.
import Database from "better-sqlite3";
import path from "node:path";
import { type Connection, createConnection } from "mysql2/promise";
import { afterAll, beforeAll, expect } from "vitest";
import type { EngineKind } from "../../lib/config";
import { toErrorResponse } from "../../lib/errors";
import { updateAuth as updateAuthService } from "../../lib/services/auth/update-auth";
import type { Ctx } from "../../lib/meta/context";
import { createDatabase } from "../../lib/services/databases/create-database";
import { createJoin as createJoinService } from "../../lib/services/joins/create-join";
import { loadSchema } from "../../lib/meta/load-schema";
import { updatePolicies as updatePoliciesService } from "../../lib/services/policies/update-policies";
import { type Harness, startHarness } from "../helpers/harness";
import { DatabaseCreate } from "../../lib/contract/schemas/databases";
import { JoinInput } from "../../lib/contract/schemas/joins";
import { asRoute } from "../helpers/as-route";

const updateAuth = asRoute(updateAuthService);
const createJoin = asRoute(createJoinService);
const updatePolicies = asRoute(updatePoliciesService);

export const TABLES = [
  {
    name: "users",
    columns: [
      { name: "email", type: "varchar", unique: true, nullable: false },
      { name: "password", type: "password", nullable: false },
      { name: "nickname", type: "varchar" },
    ],
  },
  { name: "authors", columns: [{ name: "name", type: "varchar" }] },
  {
    name: "books",
    columns: [
      { name: "title", type: "varchar" },
      { name: "author_id", type: "reference", references: "authors" },
      { name: "owner_id", type: "bigint" },
      { name: "published", type: "boolean", nullable: false, default: false },
      { name: "secret", type: "varchar" },
    ],
  },
];

export const BOOK_POLICIES = { select: "published or owner_id = auth.id", insert: null, update: "owner_id = auth.id and secret != 'x'", delete: null };
export const USER_POLICIES = { select: "email = auth.email", insert: null, update: null, delete: null };
export const CATALOG_SQL = "SELECT b.title, a.name AS author FROM books b JOIN authors a ON b.author_id = a.id";
export const OWNERS = {
  name: "owners",
  base: "books",
  joins: [{ table: "users", on: [["books.owner_id", "users.id"]] }],
  columns: [
    { column: "books.title", as: "title" },
    { column: "users.email", as: "owner_email" },
  ],
};
export const AUTH = { enabled: true, users_table: "users", login_column: "email", password_column: "password" };

/** A harness for the block, a service context for its account, and a database made of the fixture. */
export const useSchemaFixture = (engine: EngineKind) => {
  const s = {} as { h: Harness; ctx: Ctx; mysql?: Connection };
  beforeAll(async () => {
    s.h = await startHarness(engine);
    s.ctx = { app: s.h.app, actor: { accountId: s.h.accountId, isOperator: false, keyDatabaseId: null } };
    if (engine === "mysql") {
      // One open connection: a listener's query goes out at once, ahead of a COMMIT that follows it.
      s.mysql = await createConnection({ uri: s.h.app.config.databaseUrl! });
    }
  });
  afterAll(async () => {
    await s.mysql?.end();
    await s.h?.close();
  });
  return s;
};

export const makeDatabase = async (ctx: Ctx, name: string) => {
  const { instance } = await createDatabase(ctx, { body: DatabaseCreate.parse({ name, tables: TABLES }) });
  await updateAuth(ctx, { instance, body: AUTH });
  await updatePolicies(ctx, { instance, table: "books", body: BOOK_POLICIES });
  await updatePolicies(ctx, { instance, table: "users", body: USER_POLICIES });
  await createJoin(ctx, { instance, body: { name: "catalog", sql: CATALOG_SQL } });
  await createJoin(ctx, { instance, body: JoinInput.parse(OWNERS) });
  return (await loadSchema(ctx.app, instance))!;
};

/** Every metadata row of one database that a schema change may write, plus the version counters. */
export const metadataOf = async (ctx: Ctx, databaseId: number) => {
  const meta = ctx.app.engine.meta;
  return {
    metaVersion: Number((await meta.selectFrom("meta_changes").select((eb) => eb.fn.max("id").as("version")).executeTakeFirstOrThrow()).version),
    database: await meta.selectFrom("databases").select(["name", "schema_version", "updated_at"]).where("id", "=", databaseId).executeTakeFirstOrThrow(),
    tables: await meta.selectFrom("tables").select(["id", "name", "columns"]).where("database_id", "=", databaseId).orderBy("id").execute(),
    joins: await meta.selectFrom("joins").select(["id", "name", "definition", "sql"]).where("database_id", "=", databaseId).orderBy("id").execute(),
    policies: await meta.selectFrom("table_policies").select(["table_id", "policies"]).where("database_id", "=", databaseId).orderBy("table_id").execute(),
    auth: await meta.selectFrom("database_auth").select(["settings", "secret_enc", "users_table_id"]).where("database_id", "=", databaseId).execute(),
  };
};

/**
 * The committed schema version, read on a connection of its own. Called from an event listener it tells
 * whether the publish came after the commit: always on SQLite (a second reader sees committed data only), often
 * on MariaDB (its query races the COMMIT that would follow a publish made inside the transaction).
 */
export const committedVersion = (s: { h: Harness; mysql?: Connection }, databaseId: number): Promise<number> => {
  if (s.mysql) {
    return s.mysql.query("SELECT schema_version AS v FROM `databases` WHERE id = ?", [databaseId]).then(([rows]) => Number((rows as { v: number }[])[0].v));
  }
  const reader = new Database(path.join(s.h.app.config.dataDir, "tabula.db"), { readonly: true });
  try {
    return Promise.resolve((reader.prepare("SELECT schema_version AS v FROM databases WHERE id = ?").get(databaseId) as { v: number }).v);
  } finally {
    reader.close();
  }
};

/** The error a call fails with, as the API would send it. */
export const failure = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the call should have failed").toBeDefined();
  return toErrorResponse(err);
};
