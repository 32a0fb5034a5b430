// One meaning for a policy: for thousands of seeded policies over a table with a column of every comparable type,
// the rows the SQL list predicate selects (rowFilter, as the data API applies it) are exactly the rows whose
// change events the feed's matcher passes (recordMatches, on the records the outbox holds). A smaller sample
// runs through HTTP: the list a JWT user reads against the events its feed replays.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../lib/api/authenticate";
import { readEventsConfig } from "../../lib/events/events-config";
import { recordMatches } from "../../lib/events/feed/policy-match";
import { readEvents } from "../../lib/events/outbox/read-events";
import { loadSchema } from "../../lib/meta/load-schema";
import { PolicyError, parsePolicy } from "../../lib/rls/parse-policy";
import { policyColumnTypes, rowFilter } from "../../lib/rls/row-filter";
import type { DatabaseSchema } from "../../lib/schema/types";
import { openFeed } from "../events/feed-client";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { generatePolicy, generateRows, seeded, THINGS_COLUMNS } from "./policy-generator";
import { type Fixture, makeFixture, putPolicies } from "./security-fixture";

const POLICIES = 3000;
const ROWS = 60;

describe.each(ENGINES)("policy meaning on %s: SQL list = feed matcher", (engine) => {
  let h: Harness;
  let f: Fixture;
  let schema: DatabaseSchema;
  let records: Record<string, unknown>[];
  let firstEvent: number;

  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), pollMs: 100 } } });
    f = await makeFixture(h, "policydiff");
    const made = await h.request("POST", `/api/v1/databases/${f.db}/tables`, { body: { name: "things", columns: THINGS_COLUMNS } });
    expect(made.status, made.text).toBe(201);
    schema = (await loadSchema(h.app, f.db))!;
    const udb = h.app.engine.userDb(schema.physical);
    const before = (await readEvents(udb, f.db, 0, 100_000)).length;
    const rows = generateRows(seeded(7), ROWS, f.userA.id);
    const inserted = await h.request("POST", `/v1/${f.db}/things`, { body: rows });
    expect(inserted.status, inserted.text).toBe(201);
    const entries = (await readEvents(udb, f.db, 0, 100_000)).slice(before);
    firstEvent = entries[0].id;
    records = entries.map((e) => e.event!.record);
    expect(records.length).toBe(ROWS);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it(`agrees on ${POLICIES} generated policies for a JWT user`, async () => {
    const table = schema.tables.get("things")!;
    const caller: Caller = { kind: "user", userId: f.userA.id, claims: { sub: String(f.userA.id), role: "authenticated", db: f.db }, databaseId: schema.id };
    const claims = { ...caller.claims, id: caller.userId };
    const udb = h.app.engine.userDb(schema.physical);
    const rng = seeded(20260601);
    const mismatches: unknown[] = [];
    let refused = 0;
    let partial = 0; // policies that pass some rows but not all: the ones that tell interpreters apart
    for (let i = 0; i < POLICIES; i++) {
      const text = generatePolicy(rng);
      let node;
      try {
        node = parsePolicy(text, policyColumnTypes(table));
      } catch (err) {
        if (!(err instanceof PolicyError)) throw err;
        refused++;
        continue;
      }
      const policyTable = { ...table, policies: { select: text } };
      const filter = rowFilter(caller, { ...schema, tables: new Map([["things", policyTable]]) }, "things", "select");
      if (!filter || filter === "deny") throw new Error(`no filter for ${text}`);
      const { rows } = await sql<{ id: number }>`SELECT ${sql.id("id")} FROM ${udb.table("things")} WHERE ${filter}`.execute(udb.db);
      const listed = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
      const matched = records.filter((r) => recordMatches(node, table, r, claims)).map((r) => Number(r.id));
      if (listed.length > 0 && listed.length < ROWS) partial++;
      if (listed.join() !== matched.join()) {
        const differ = [...listed.filter((id) => !matched.includes(id)), ...matched.filter((id) => !listed.includes(id))];
        mismatches.push({ text, onlySql: listed.filter((id) => !matched.includes(id)), onlyFeed: matched.filter((id) => !listed.includes(id)), rows: records.filter((r) => differ.includes(Number(r.id))).slice(0, 2) });
      }
    }
    expect(refused, "generated policies are meant to be valid").toBe(0);
    expect(partial, "most policies split the rows").toBeGreaterThan(POLICIES / 2);
    expect(mismatches.slice(0, 5), `${mismatches.length} of ${POLICIES} policies differ`).toEqual([]);
  }, 120_000);

  it("agrees through HTTP: the list a JWT user reads = the inserts its feed replays", async () => {
    const rng = seeded(99);
    const made = await h.request("POST", `/v1/${f.db}/things`, { body: { title: "marker" } });
    expect(made.status, made.text).toBe(201);
    const marker = made.body.id as number;
    for (let i = 0; i < 12; i++) {
      const text = `(${generatePolicy(rng, 2)}) or id = ${marker}`;
      await putPolicies(h, f.db, "things", { select: text });
      const list = await h.request("GET", `/v1/${f.db}/things?_limit=1000`, f.bearer(f.userA.token));
      expect(list.status, list.text).toBe(200);
      const feed = await openFeed(h, `/v1/${f.db}/_changes?tables=things`, { authorization: `Bearer ${f.userA.token}`, "last-event-id": String(firstEvent - 1) });
      try {
        await feed.waitFor(1, (fr) => fr.data?.record?.id === marker);
        const fed = feed.events().map((e) => (e.event === "reset" ? `reset ${JSON.stringify(e.data)}` : (e.data.record.id as number)));
        expect({ text, ids: fed }).toEqual({ text, ids: list.body.map((r: { id: number }) => r.id) });
      } finally {
        feed.close();
      }
    }
  }, 60_000);
});
