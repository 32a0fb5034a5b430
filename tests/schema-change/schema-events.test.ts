// Every schema-changing service publishes exactly one schema event, after its transaction committed (a reader
// on another connection already sees the new version), and moves the database's schema version by one.
import { beforeEach, describe, expect, it } from "vitest";
import type { AppEvent } from "../../lib/events/bus";
import { rotateAuthSecret as rotateAuthSecretService } from "../../lib/services/auth/rotate-auth-secret";
import { updateAuth as updateAuthService } from "../../lib/services/auth/update-auth";
import { addColumn as addColumnService } from "../../lib/services/columns/add-column";
import { dropColumn as dropColumnService } from "../../lib/services/columns/drop-column";
import { updateColumn as updateColumnService } from "../../lib/services/columns/update-column";
import type { Ctx } from "../../lib/meta/context";
import { updateDatabase as updateDatabaseService } from "../../lib/services/databases/update-database";
import { createJoin as createJoinService } from "../../lib/services/joins/create-join";
import { deleteJoin as deleteJoinService } from "../../lib/services/joins/delete-join";
import { updateJoin as updateJoinService } from "../../lib/services/joins/update-join";
import { updatePolicies as updatePoliciesService } from "../../lib/services/policies/update-policies";
import { createTable as createTableService } from "../../lib/services/tables/create-table";
import { dropTable as dropTableService } from "../../lib/services/tables/drop-table";
import { updateTable as updateTableService } from "../../lib/services/tables/update-table";
import type { DatabaseSchema } from "../../lib/schema/types";
import { ENGINES } from "../helpers/harness";
import { AUTH, committedVersion, makeDatabase, metadataOf, useSchemaFixture } from "./schema-change-fixture";
import { asRoute } from "../helpers/as-route";

const rotateAuthSecret = asRoute(rotateAuthSecretService);
const updateAuth = asRoute(updateAuthService);
const addColumn = asRoute(addColumnService);
const dropColumn = asRoute(dropColumnService);
const updateColumn = asRoute(updateColumnService);
const updateDatabase = asRoute(updateDatabaseService);
const createJoin = asRoute(createJoinService);
const deleteJoin = asRoute(deleteJoinService);
const updateJoin = asRoute(updateJoinService);
const updatePolicies = asRoute(updatePoliciesService);
const createTable = asRoute(createTableService);
const dropTable = asRoute(dropTableService);
const updateTable = asRoute(updateTableService);

type Step = (ctx: Ctx, instance: string) => Promise<unknown>;
const TAGS: Step = (ctx, instance) => createTable(ctx, { instance, body: { name: "tags", columns: [{ name: "label", type: "varchar" }, { name: "color", type: "varchar" }] } });
const TITLES: Step = (ctx, instance) => createJoin(ctx, { instance, body: { name: "titles", sql: "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id" } });

// Each change with what it needs beyond the fixture (`prepare`, run on a fresh database before listening).
const CHANGES: [string, Step, Step[]][] = [
  ["createTable", (ctx, instance) => createTable(ctx, { instance, body: { name: "tags", columns: [{ name: "label", type: "varchar" }] } }), []],
  ["addColumn", (ctx, instance) => addColumn(ctx, { instance, table: "tags", body: { name: "shade", type: "varchar" } }), [TAGS]],
  ["updateColumn", (ctx, instance) => updateColumn(ctx, { instance, table: "tags", column: "color", body: { name: "colour" } }), [TAGS]],
  ["dropColumn", (ctx, instance) => dropColumn(ctx, { instance, table: "tags", column: "color" }), [TAGS]],
  ["updateTable", (ctx, instance) => updateTable(ctx, { instance, table: "tags", body: { name: "labels" } }), [TAGS]],
  ["dropTable", (ctx, instance) => dropTable(ctx, { instance, table: "tags" }), [TAGS]],
  ["createJoin", TITLES, []],
  ["updateJoin", (ctx, instance) => updateJoin(ctx, { instance, join: "titles", body: { name: "book_titles" } }), [TITLES]],
  ["deleteJoin", (ctx, instance) => deleteJoin(ctx, { instance, join: "titles" }), [TITLES]],
  ["updatePolicies", (ctx, instance) => updatePolicies(ctx, { instance, table: "authors", body: { select: "true" } }), []],
  ["updateAuth", (ctx, instance) => updateAuth(ctx, { instance, body: { ...AUTH, token_ttl_seconds: 60 } }), []],
  ["rotateAuthSecret", (ctx, instance) => rotateAuthSecret(ctx, { instance }), []],
  ["updateDatabase", (ctx, instance) => updateDatabase(ctx, { instance, body: { name: "Renamed" } }), []],
];

describe.each(ENGINES)("schema events on %s", (engine) => {
  const s = useSchemaFixture(engine);
  let schema: DatabaseSchema;

  // A database of its own for each change, so each runs alone (-t) and none starts from another's leftovers.
  beforeEach(async () => {
    schema = await makeDatabase(s.ctx, `events ${engine}`);
  });

  it.each(CHANGES)("%s publishes one schema event after commit and moves the version by one", async (_verb, run, prepare) => {
    for (const step of prepare) await step(s.ctx, schema.instance);
    const before = (await metadataOf(s.ctx, schema.id)).database.schema_version;
    const events: AppEvent[] = [];
    const seenAtPublish: Promise<number>[] = [];
    const unsubscribe = s.h.app.events.subscribe((event) => {
      events.push(event);
      seenAtPublish.push(committedVersion(s, schema.id));
    });
    try {
      await run(s.ctx, schema.instance);
    } finally {
      unsubscribe();
    }
    expect(events).toEqual([{ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical }]);
    expect(await Promise.all(seenAtPublish)).toEqual([before + 1]);
    expect((await metadataOf(s.ctx, schema.id)).database.schema_version).toBe(before + 1);
  });
});
