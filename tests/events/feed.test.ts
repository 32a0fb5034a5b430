// The change feed over both adapters and both engines: the SSE shape, resume with Last-Event-ID (every event
// once), the browser's access_token, reset when the resume point is gone, and heartbeats.
import { createConnection } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { pruneDatabase } from "../../lib/events/outbox/prune-events";
import { loadSchema } from "../../lib/meta/load-schema";
import { createDatabase, MATRIX } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { type Feed, openFeed } from "./feed-client";

describe.each(MATRIX)("change feed on $engine via $adapter", ({ engine, adapter }) => {
  let h: Harness;
  let db: string;
  const feeds: Feed[] = [];
  const open = async (path: string, headers?: Record<string, string>) => {
    const feed = await openFeed(h, path, headers ?? { "x-api-key": h.accountKey });
    feeds.push(feed);
    return feed;
  };
  const post = (table: string, body: unknown) => h.request("POST", `/v1/${db}/${table}`, { body });

  beforeAll(async () => {
    h = await startHarness(engine, adapter, { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), heartbeatMs: 300, pollMs: 100 } } });
    db = await createDatabase(h, "feed", [
      { name: "todos", columns: [{ name: "title", type: "varchar" }] },
      { name: "notes", columns: [{ name: "body", type: "text" }] },
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const f of feeds) f.close();
    await h?.close();
  });

  it("streams inserts, updates and deletes of the tables asked as SSE frames, in id order", async () => {
    const feed = await open(`/v1/${db}/_changes?tables=todos`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await feed.waitFor(1, (f) => f.comment === undefined && f.event === undefined); // the retry line: connected
    const created = (await post("todos", { title: "one" })).body;
    await post("notes", { body: "not asked for" });
    await h.request("PATCH", `/v1/${db}/todos/${created.id}`, { body: { title: "two" } });
    await h.request("DELETE", `/v1/${db}/todos/${created.id}`);
    const events = await feed.waitFor(3);
    expect(events.map((e) => [e.event, e.data.table, e.data.record.title])).toEqual([["insert", "todos", "one"], ["update", "todos", "two"], ["delete", "todos", "two"]]);
    expect(events[1].data.old_record.title).toBe("one");
    const ids = events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.every((e) => String(e.data.id) === e.id && e.data.db === db)).toBe(true);
  });

  it("has every write made once the response's headers arrived, before any frame (the start is read before them)", async () => {
    const feed = await open(`/v1/${db}/_changes?tables=notes`);
    expect(feed.status).toBe(200);
    const bodies = Array.from({ length: 10 }, (_, i) => `at open ${i}`);
    await Promise.all(bodies.map((body) => post("notes", { body })));
    const frames = await feed.waitFor(10, (f) => f.event === "insert");
    expect(frames.map((f) => f.data.record.body).sort()).toEqual([...bodies].sort());
  });

  // MySQL numbers events in a sequencer run that a reader's bounds read waits for: holding the sequence row holds
  // that read, which shows whether the stream opens before or after its start point is fixed.
  if (engine === "mysql") it("opens only once its start point is read, so nothing written after the open is missed", async () => {
    const { physical } = (await loadSchema(h.app, db))!;
    const server = new URL(process.env.TEST_MYSQL_URL!);
    const other = await createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username || "root"), password: decodeURIComponent(server.password) });
    try {
      await other.query("BEGIN");
      await other.query(`SELECT last_id FROM \`${physical}\`.\`_tabula_event_seq\` WHERE id = 1 FOR UPDATE`);
      await post("notes", { body: "queued before the open" }); // its event waits in the queue for the sequencer
      const opening = open(`/v1/${db}/_changes?tables=notes`);
      const early = await Promise.race([opening.then(() => true), new Promise((r) => setTimeout(() => r(false), 300))]);
      expect(early, "the stream opened before its start point was read").toBe(false);
      await other.query("COMMIT");
      const feed = await opening;
      await post("notes", { body: "written once the stream was open" });
      const [first] = await feed.waitFor(1, (f) => f.event === "insert");
      expect(first.data.record.body).toBe("written once the stream was open");
    } finally {
      await other.query("ROLLBACK").catch(() => undefined);
      await other.end();
    }
  });

  it("a subscriber killed and resumed with Last-Event-ID receives every event exactly once", async () => {
    const first = await open(`/v1/${db}/_changes?tables=todos,notes`);
    await first.waitFor(1, (f) => f.event === undefined);
    for (let i = 0; i < 5; i++) await post("todos", { title: `before ${i}` });
    const seen = await first.waitFor(5);
    first.close();
    for (let i = 0; i < 5; i++) await post(i % 2 ? "notes" : "todos", i % 2 ? { body: `while away ${i}` } : { title: `while away ${i}` });
    const resumed = await open(`/v1/${db}/_changes?tables=todos,notes`, { "x-api-key": h.accountKey, "last-event-id": seen[4].id! });
    await post("todos", { title: "after" });
    const rest = await resumed.waitFor(6);
    const all = [...seen.slice(0, 5), ...rest].map((e) => Number(e.id));
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(Array.from({ length: 11 }, (_, i) => all[0] + i));
    expect(rest.map((e) => e.data.record.title ?? e.data.record.body)).toEqual(["while away 0", "while away 1", "while away 2", "while away 3", "while away 4", "after"]);
    // The query parameter resumes the same way (EventSource cannot set headers on its first connection).
    const byQuery = await open(`/v1/${db}/_changes?tables=notes&last_event_id=${seen[4].id}&access_token=${h.accountKey}`, {});
    expect((await byQuery.waitFor(2)).map((e) => e.data.record.body)).toEqual(["while away 1", "while away 3"]);
  });

  it("access_token: should allow a valid key, should refuse a wrong one (401) and no credential (401)", async () => {
    expect((await open(`/v1/${db}/_changes?access_token=${h.accountKey}`, {})).status).toBe(200);
    expect((await open(`/v1/${db}/_changes?access_token=sk_wrong`, {})).status).toBe(401);
    expect((await open(`/v1/${db}/_changes`, {})).status).toBe(401);
  });

  it("bad requests name the problem: unknown table 404, bad last_event_id 422, POST 405", async () => {
    const unknown = await h.request("GET", `/v1/${db}/_changes?tables=nope`);
    expect(unknown.status).toBe(404);
    const bad = await h.request("GET", `/v1/${db}/_changes?last_event_id=abc`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("last_event_id");
    expect((await h.request("POST", `/v1/${db}/_changes`, { body: {} })).status).toBe(405);
  });

  it("a resume point older than retention gets one reset event, then live events", async () => {
    // Two events at least, whatever ran before: the one after the resume point (1) is pruned unread.
    await post("todos", [{ title: "old" }, { title: "older" }]);
    const schema = (await loadSchema(h.app, db))!;
    await pruneDatabase(h.app, schema.physical, Date.now() + 48 * 3_600_000);
    const feed = await open(`/v1/${db}/_changes?tables=todos`, { "x-api-key": h.accountKey, "last-event-id": "1" });
    const [reset] = await feed.waitFor(1);
    expect(reset.event).toBe("reset");
    await post("todos", { title: "live" });
    const events = await feed.waitFor(2);
    expect(events.map((e) => e.event)).toEqual(["reset", "insert"]);
    expect(events[1].data.record.title).toBe("live");
    expect(Number(events[1].id)).toBe(Number(reset.id) + 1);
  });

  it("sends a comment heartbeat when idle", async () => {
    const feed = await open(`/v1/${db}/_changes?tables=notes`);
    await feed.waitFor(2, (f) => f.comment === "heartbeat", 3000);
  });
});
