// Every registered dependent vetoes a change that would break it with a 409 naming it, and a refused change
// leaves the schema version and every metadata row as they were (no event either).
import { beforeAll, describe, expect, it } from "vitest";
import type { AppEvent } from "../../lib/events/bus";
import { dropColumn as dropColumnService } from "../../lib/services/columns/drop-column";
import { updateColumn as updateColumnService } from "../../lib/services/columns/update-column";
import type { Ctx } from "../../lib/meta/context";
import { SCHEMA_DEPENDENTS } from "../../lib/meta/schema-change/dependents";
import { updatePolicies as updatePoliciesService } from "../../lib/services/policies/update-policies";
import { dropTable as dropTableService } from "../../lib/services/tables/drop-table";
import { getTable as getTableService } from "../../lib/services/tables/get-table";
import type { DatabaseSchema } from "../../lib/schema/types";
import { ENGINES } from "../helpers/harness";
import { BOOK_POLICIES, failure, makeDatabase, metadataOf, useSchemaFixture } from "./schema-change-fixture";
import { asRoute } from "../helpers/as-route";

const dropColumn = asRoute(dropColumnService);
const updateColumn = asRoute(updateColumnService);
const updatePolicies = asRoute(updatePoliciesService);
const dropTable = asRoute(dropTableService);
const getTable = asRoute(getTableService);

type Refusal = [dependent: string, change: string, run: (ctx: Ctx, instance: string) => Promise<unknown>, message: string];

const REFUSALS: Refusal[] = [
  [
    "references",
    "drop table authors",
    (ctx, instance) => dropTable(ctx, { instance, table: "authors" }),
    'Table "authors" is referenced by column "books.author_id"; drop or change that column first.',
  ],
  [
    "joins",
    "drop column authors.name",
    (ctx, instance) => dropColumn(ctx, { instance, table: "authors", column: "name" }),
    'Column "authors.name" is used by join "catalog"; change or delete the join first.',
  ],
  [
    "joins",
    "drop table users",
    (ctx, instance) => dropTable(ctx, { instance, table: "users" }),
    'Table "users" is used by join "owners"; change or delete the join first.',
  ],
  [
    "policies",
    "drop column books.secret",
    (ctx, instance) => dropColumn(ctx, { instance, table: "books", column: "secret" }),
    'Column "secret" is used by the update policy of table "books"; change that policy first.',
  ],
  [
    "policies",
    "make books.published an int",
    (ctx, instance) => updateColumn(ctx, { instance, table: "books", column: "published", body: { type: "int" } }),
    'The change to column "published" breaks the select policy of table "books" (position 11: expected a comparison after "published" (only true, false or a boolean column stand alone)); change that policy first.',
  ],
  [
    "auth",
    "drop column users.password",
    (ctx, instance) => dropColumn(ctx, { instance, table: "users", column: "password" }),
    'Column "password" is the login or password column of database auth; change the auth settings first.',
  ],
  [
    "auth",
    "make users.email not unique",
    (ctx, instance) => updateColumn(ctx, { instance, table: "users", column: "email", body: { unique: false } }),
    'Column "email" is the login or password column of database auth (login: unique varchar or text; password: type password); change the auth settings first.',
  ],
];

describe.each(ENGINES)("schema dependents refuse on %s", (engine) => {
  const s = useSchemaFixture(engine);
  let schema: DatabaseSchema;

  beforeAll(async () => {
    schema = await makeDatabase(s.ctx, `refusals ${engine}`);
  });

  it("registers each dependent once, references first (a drop it refuses is not blamed on a join)", () => {
    expect(SCHEMA_DEPENDENTS.map((d) => d.name)).toEqual(["references", "joins", "policies", "auth", "hooks", "indexes"]);
  });

  it.each(REFUSALS)("%s refuses to %s with a 409 naming it; the metadata and version stay, no event", async (_dependent, _change, run, message) => {
    const before = await metadataOf(s.ctx, schema.id);
    const events: AppEvent[] = [];
    const unsubscribe = s.h.app.events.subscribe((e) => void events.push(e));
    try {
      expect(await failure(run(s.ctx, schema.instance))).toEqual({ status: 409, body: { error: "conflict", message }, headers: {} });
    } finally {
      unsubscribe();
    }
    expect(await metadataOf(s.ctx, schema.id)).toEqual(before);
    expect(events).toEqual([]);
  });

  it("should allow: once the update policy no longer names it, books.secret drops", async () => {
    const { instance } = schema;
    await updatePolicies(s.ctx, { instance, table: "books", body: { ...BOOK_POLICIES, update: "owner_id = auth.id" } });
    await dropColumn(s.ctx, { instance, table: "books", column: "secret" });
    expect((await getTable(s.ctx, { instance, table: "books" })).columns.map((c) => c.name)).toEqual(["title", "author_id", "owner_id", "published"]);
  });
});
