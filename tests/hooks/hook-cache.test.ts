// A database's hooks are cached beside its schema, under their own key: a hook change is served at the next
// request and keeps the cached schema (its tables are not read again, its schema version stays); a schema change
// still drops the hooks, which are compiled against its tables. Each case first catches up with the metadata
// version (app.sync), as a request does (without a Redis link a MariaDB process clears every cache when that
// version moves), so it looks at what the events alone drop.
import { describe, expect, it } from "vitest";
import type { AppEvent } from "../../lib/events/bus";
import { loadDatabase } from "../../lib/meta/load-schema";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { putHooks } from "./hooks-fixture";

describe.each(ENGINES)("hook cache (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  // Each case makes its own database, so each passes alone (`-t`) and in any order.
  const notesDatabase = (name: string) => createDatabase(ctx.h, name, [{ name: "notes", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "slug", type: "varchar" }] }]);

  it("a hook change publishes a hooks event, keeps the cached schema and is served at the next request", async () => {
    const db = await notesDatabase("hook change");
    await ctx.h.app.sync();
    const before = (await loadDatabase(ctx.h.app, db))!;
    const events: AppEvent[] = [];
    const unsubscribe = ctx.h.app.events.subscribe((event) => void events.push(event));
    try {
      await putHooks(ctx.h, db, "notes", { insert: [{ set: "slug", expr: "new.title.lowerAscii()" }] });
    } finally {
      unsubscribe();
    }
    expect(events).toEqual([{ kind: "hooks", databaseId: before.schema.id, instance: db }]);
    const stored = await ctx.h.app.engine.meta.selectFrom("databases").select("schema_version").where("instance", "=", db).executeTakeFirstOrThrow();
    expect(stored.schema_version).toBe(before.schema.version);
    const after = (await loadDatabase(ctx.h.app, db))!;
    expect(after).not.toBe(before);
    expect(after.schema).toBe(before.schema);
    expect(after.hooks.get("notes")?.steps.insert).toHaveLength(1);
    const reply = await ctx.h.request("POST", `/v1/${db}/notes`, { body: { title: "Hello" } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.slug).toBe("hello");
  });

  it("a schema change drops the hooks with the schema and compiles them again against the new tables", async () => {
    const db = await notesDatabase("schema change");
    await putHooks(ctx.h, db, "notes", { insert: [{ set: "slug", expr: "new.title.lowerAscii()" }] });
    await ctx.h.app.sync();
    const before = (await loadDatabase(ctx.h.app, db))!;
    const reply = await ctx.h.request("POST", `/api/v1/databases/${db}/tables/notes/columns`, { body: { name: "extra", type: "int" } });
    expect(reply.status, reply.text).toBe(201);
    const after = (await loadDatabase(ctx.h.app, db))!;
    expect(after.schema).not.toBe(before.schema);
    expect(after.hooks).not.toBe(before.hooks);
    expect(after.hooks.get("notes")?.steps.insert).toHaveLength(1);
  });
});
