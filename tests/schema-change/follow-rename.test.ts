// A rename is followed by every dependent in the change's own transaction: joins (both forms), row policies
// and the auth settings move with it in one version step, and a DDL failure takes all of them back.
import { describe, expect, it } from "vitest";
import type { AppEvent } from "../../lib/events/bus";
import { getAuth as getAuthService } from "../../lib/services/auth/get-auth";
import { updateColumn as updateColumnService } from "../../lib/services/columns/update-column";
import { getJoin as getJoinService } from "../../lib/services/joins/get-join";
import { loadDatabase } from "../../lib/meta/load-schema";
import { getPolicies as getPoliciesService } from "../../lib/services/policies/get-policies";
import { changeSchema } from "../../lib/meta/schema-change/change-schema";
import { getTable as getTableService } from "../../lib/services/tables/get-table";
import { updateTable as updateTableService } from "../../lib/services/tables/update-table";
import { ENGINES } from "../helpers/harness";
import { AUTH, BOOK_POLICIES, makeDatabase, metadataOf, OWNERS, USER_POLICIES, useSchemaFixture } from "./schema-change-fixture";
import { asRoute } from "../helpers/as-route";

const getAuth = asRoute(getAuthService);
const updateColumn = asRoute(updateColumnService);
const getJoin = asRoute(getJoinService);
const getPolicies = asRoute(getPoliciesService);
const getTable = asRoute(getTableService);
const updateTable = asRoute(updateTableService);

describe.each(ENGINES)("dependents follow renames on %s", (engine) => {
  const s = useSchemaFixture(engine);

  const watchEvents = () => {
    const events: AppEvent[] = [];
    return { events, stop: s.h.app.events.subscribe((e) => void events.push(e)) };
  };

  it("a column rename rewrites the joins, the policies and the auth settings in one version step", async () => {
    const schema = await makeDatabase(s.ctx, `follow column ${engine}`);
    const { instance } = schema;
    const before = await metadataOf(s.ctx, schema.id);
    const watch = watchEvents();
    await updateColumn(s.ctx, { instance, table: "users", column: "email", body: { name: "login" } });
    watch.stop();
    const after = await metadataOf(s.ctx, schema.id);
    expect(after.database.schema_version).toBe(before.database.schema_version + 1);
    expect(after.metaVersion).toBe(before.metaVersion + 1);
    expect(watch.events).toEqual([{ kind: "schema", databaseId: schema.id, instance, physical: schema.physical }]);
    expect(await getJoin(s.ctx, { instance, join: "owners" })).toEqual({
      ...OWNERS,
      columns: [OWNERS.columns[0], { column: "users.login", as: "owner_email" }],
      path: `/v1/${instance}/owners`,
    });
    expect(await getPolicies(s.ctx, { instance, table: "users" })).toEqual({ ...USER_POLICIES, select: "login = auth.email" });
    expect(await getPolicies(s.ctx, { instance, table: "books" })).toEqual(BOOK_POLICIES);
    expect(await getAuth(s.ctx, { instance })).toMatchObject({ ...AUTH, login_column: "login" });
    const user = await s.h.request("POST", `/v1/${instance}/users`, { body: { login: "a@example.com", password: "alpha-password-1" } });
    expect(user.status, user.text).toBe(201);
    const login = await s.h.request("POST", `/v1/${instance}/auth/login`, { key: null, body: { login: "a@example.com", password: "alpha-password-1" } });
    expect(login.status, login.text).toBe(200);
  });

  it("a table rename retargets reference columns and rewrites the joins (SQL text included) and the auth settings", async () => {
    const schema = await makeDatabase(s.ctx, `follow table ${engine}`);
    const { instance } = schema;
    await updateTable(s.ctx, { instance, table: "authors", body: { name: "writers" } });
    await updateTable(s.ctx, { instance, table: "users", body: { name: "members" } });
    expect((await getTable(s.ctx, { instance, table: "books" })).columns[1]).toMatchObject({ name: "author_id", references: "writers" });
    expect(await getJoin(s.ctx, { instance, join: "catalog" })).toEqual({
      name: "catalog",
      base: "books",
      joins: [{ table: "writers", on: [["books.author_id", "writers.id"]] }],
      columns: [
        { column: "books.title", as: "title" },
        { column: "writers.name", as: "author" },
      ],
      sql: "SELECT `books`.`title` AS `title`,\n       `writers`.`name` AS `author`\nFROM `books`\nINNER JOIN `writers` ON `books`.`author_id` = `writers`.`id`",
      path: `/v1/${instance}/catalog`,
    });
    expect((await getJoin(s.ctx, { instance, join: "owners" })).joins).toEqual([{ table: "members", on: [["books.owner_id", "members.id"]] }]);
    expect(await getAuth(s.ctx, { instance })).toMatchObject({ ...AUTH, users_table: "members" });
    const stored = await s.h.app.engine.meta.selectFrom("database_auth").select("settings").where("database_id", "=", schema.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings).users_table).toBe("members");
  });

  it("a DDL failure after the dependents followed leaves every metadata row and the version as they were", async () => {
    const schema = await makeDatabase(s.ctx, `follow rollback ${engine}`);
    const users = schema.tables.get("users")!;
    const from = users.columns[0];
    const before = await metadataOf(s.ctx, schema.id);
    const watch = watchEvents();
    const change = changeSchema(s.ctx, schema, { kind: "update-column", table: users, from, to: { ...from, name: "login" } }, {
      metadata: async (trx) => void (await trx.updateTable("tables").set({ columns: "[]" }).where("id", "=", users.id).execute()),
      ddl: async () => {
        throw new Error("the DDL failed");
      },
    });
    await expect(change).rejects.toThrow("the DDL failed");
    watch.stop();
    expect(await metadataOf(s.ctx, schema.id)).toEqual(before);
    expect(watch.events).toEqual([]);
    s.h.app.schemas.clear();
    expect((await loadDatabase(s.h.app, schema.instance))!.auth?.login_column).toBe("email");
  });
});
