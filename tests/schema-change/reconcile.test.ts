// The schema-change journal and its reconciler: every change leaves a journal row marked done with its metadata;
// a change cut off between its DDL and its metadata commit (simulated: the DDL run by hand, the journal row left
// pending) is undone (an add, a create) or finished (a drop) so the metadata equals the engine's tables again.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { physicalColumns } from "../../lib/ddl/physical-columns";
import { addColumn as addColumnService } from "../../lib/services/columns/add-column";
import { dropColumn as dropColumnService } from "../../lib/services/columns/drop-column";
import { updateColumn as updateColumnService } from "../../lib/services/columns/update-column";
import { syncSearch } from "../../lib/ddl/sync-search";
import { searchTableName } from "../../lib/schema/search";
import { loadSchema } from "../../lib/meta/load-schema";
import { reconcileSchemas } from "../../lib/meta/schema-change/reconcile-schema";
import type { JournalChange } from "../../lib/meta/schema-change/journal";
import { ENGINES } from "../helpers/harness";
import { makeDatabase, useSchemaFixture } from "./schema-change-fixture";
import { asRoute } from "../helpers/as-route";

const addColumn = asRoute(addColumnService);
const dropColumn = asRoute(dropColumnService);
const updateColumn = asRoute(updateColumnService);

describe.each(ENGINES)("schema-change journal and reconciler on %s", (engine) => {
  const s = useSchemaFixture(engine);

  const pending = async (databaseId: number, change: JournalChange, ageMs = 120_000) => {
    const at = new Date(Date.now() - ageMs).toISOString();
    const row = { database_id: databaseId, change: JSON.stringify(change), state: "pending" as const, note: null, created_at: at, updated_at: at };
    return Number((await s.h.app.engine.meta.insertInto("schema_journal").values(row).executeTakeFirstOrThrow()).insertId);
  };
  const stateOf = async (id: number) => (await s.h.app.engine.meta.selectFrom("schema_journal").select("state").where("id", "=", id).executeTakeFirstOrThrow()).state;
  const metaColumns = async (instance: string, table: string) => {
    s.h.app.schemas.clear();
    return (await loadSchema(s.h.app, instance))!.tables.get(table)!.columns.map((c) => c.name);
  };

  it("a completed change leaves its journal row done", async () => {
    const schema = await makeDatabase(s.ctx, `journal done ${engine}`);
    await addColumn(s.ctx, { instance: schema.instance, table: "authors", body: { name: "born", type: "int" } });
    const rows = await s.h.app.engine.meta.selectFrom("schema_journal").select(["state", "change"]).where("database_id", "=", schema.id).execute();
    expect(rows.map((r) => [r.state, JSON.parse(r.change)])).toContainEqual(["done", { kind: "add-column", table: "authors", column: "born" }]);
    expect(rows.filter((r) => r.state === "pending")).toEqual([]);
  });

  it("undoes a column whose metadata never committed, so adding it again works (not a duplicate-column 500)", async () => {
    const schema = await makeDatabase(s.ctx, `journal undo ${engine}`);
    const udb = s.h.app.engine.userDb(schema.physical);
    await sql`ALTER TABLE ${udb.table("authors")} ADD COLUMN ${sql.id("orphan")} INT`.execute(udb.db);
    const id = await pending(schema.id, { kind: "add-column", table: "authors", column: "orphan" });
    expect(await reconcileSchemas(s.h.app, 60_000)).toBeGreaterThanOrEqual(1);
    expect(await stateOf(id)).toBe("undone");
    expect((await physicalColumns(udb, schema.physical, "authors"))!.has("orphan")).toBe(false);
    await addColumn(s.ctx, { instance: schema.instance, table: "authors", body: { name: "orphan", type: "int" } });
    expect(await metaColumns(schema.instance, "authors")).toContain("orphan");
  });

  if (engine === "sqlite") {
    it("undoes a searchable column whose metadata never committed: its triggers go, the table's other search index keeps following writes", async () => {
      const schema = await makeDatabase(s.ctx, `journal undo searchable ${engine}`);
      await updateColumn(s.ctx, { instance: schema.instance, table: "authors", column: "name", body: { searchable: true } });
      s.h.app.schemas.clear();
      const authors = (await loadSchema(s.h.app, schema.instance))!.tables.get("authors")!;
      const udb = s.h.app.engine.userDb(schema.physical);
      // The cut-off change's DDL: the column and its search index with triggers naming it.
      await sql`ALTER TABLE ${udb.table("authors")} ADD COLUMN ${sql.id("orphan")} TEXT`.execute(udb.db);
      const orphan = { name: "orphan", type: "text" as const, nullable: true, unique: false, searchable: true };
      await syncSearch(udb, authors.id, { ...authors, columns: [...authors.columns, orphan] });
      const id = await pending(schema.id, { kind: "add-column", table: "authors", column: "orphan" });
      expect(await reconcileSchemas(s.h.app, 60_000)).toBeGreaterThanOrEqual(1);
      expect(await stateOf(id)).toBe("undone");
      expect((await physicalColumns(udb, schema.physical, "authors"))!.has("orphan")).toBe(false);
      const at = new Date().toISOString();
      const { insertId } = await sql`INSERT INTO ${udb.table("authors")} (${sql.id("name")}, ${sql.id("created_at")}, ${sql.id("updated_at")}) VALUES ('Zebulon Pike', ${at}, ${at})`.execute(udb.db);
      const fts = sql.id(searchTableName(authors.id, "name"));
      const { rows } = await sql<{ id: number }>`SELECT rowid AS id FROM ${fts} WHERE ${fts} MATCH '"zebulon"'`.execute(udb.db);
      expect(rows.map((r) => Number(r.id))).toEqual([Number(insertId)]);
      const { rows: left } = await sql`SELECT name FROM sqlite_master WHERE name = ${searchTableName(authors.id, "orphan")}`.execute(udb.db);
      expect(left).toEqual([]);
    });
  }

  it("finishes a drop whose DDL ran: the column leaves the metadata too", async () => {
    const schema = await makeDatabase(s.ctx, `journal finish ${engine}`);
    const udb = s.h.app.engine.userDb(schema.physical);
    await sql`ALTER TABLE ${udb.table("users")} DROP COLUMN ${sql.id("nickname")}`.execute(udb.db);
    const id = await pending(schema.id, { kind: "drop-column", table: "users", column: "nickname" });
    await reconcileSchemas(s.h.app, 60_000);
    expect(await stateOf(id)).toBe("finished");
    expect(await metaColumns(schema.instance, "users")).not.toContain("nickname");
  });

  it("leaves a change younger than the grace period alone (it may still be in flight on another node)", async () => {
    const schema = await makeDatabase(s.ctx, `journal young ${engine}`);
    const udb = s.h.app.engine.userDb(schema.physical);
    await sql`ALTER TABLE ${udb.table("authors")} ADD COLUMN ${sql.id("inflight")} INT`.execute(udb.db);
    const id = await pending(schema.id, { kind: "add-column", table: "authors", column: "inflight" }, 0);
    await reconcileSchemas(s.h.app, 60_000);
    expect(await stateOf(id)).toBe("pending");
    expect((await physicalColumns(udb, schema.physical, "authors"))!.has("inflight")).toBe(true);
  });

  it("a drop run again after its DDL committed (a lost metadata commit) finds the column gone and still succeeds", async () => {
    const schema = await makeDatabase(s.ctx, `journal again ${engine}`);
    const udb = s.h.app.engine.userDb(schema.physical);
    await sql`ALTER TABLE ${udb.table("users")} DROP COLUMN ${sql.id("nickname")}`.execute(udb.db);
    await dropColumn(s.ctx, { instance: schema.instance, table: "users", column: "nickname" });
    expect(await metaColumns(schema.instance, "users")).not.toContain("nickname");
  });
});
