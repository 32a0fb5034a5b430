// What one change feed costs others: a credential may hold a bounded number of feeds open (429 past it, allowed
// again once one closes), and a write wakes only the feeds of its own table. Both engines, both adapters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { feedWakeUps } from "../../lib/events/outbox/change-signal";
import { createDatabase, expectError, MATRIX } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { waitUntil } from "./receiver";
import { type Feed, openFeed } from "./feed-client";

const PER_KEY = 3;

describe.each(MATRIX)("change feed limits on $engine via $adapter", ({ engine, adapter }) => {
  let h: Harness;
  let db: string;
  const feeds: Feed[] = [];
  const open = async (path: string) => {
    const feed = await openFeed(h, path, { "x-api-key": h.accountKey });
    feeds.push(feed);
    return feed;
  };

  beforeAll(async () => {
    h = await startHarness(engine, adapter, { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), pollMs: 5000, feedsPerKey: PER_KEY } } });
    db = await createDatabase(h, "limits", [
      { name: "todos", columns: [{ name: "title", type: "varchar" }] },
      { name: "notes", columns: [{ name: "body", type: "text" }] },
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const f of feeds) f.close();
    await h?.close();
  });

  it(`a key may hold ${PER_KEY} feeds: the next is 429, and one is allowed again once a feed closes`, async () => {
    const held = [];
    for (let i = 0; i < PER_KEY; i++) {
      const feed = await open(`/v1/${db}/_changes?tables=todos`);
      expect(feed.status).toBe(200);
      held.push(feed);
    }
    const refused = await h.request("GET", `/v1/${db}/_changes?tables=todos`);
    expectError(refused, 429, "rate_limited");
    expect(refused.body.message).toBe(`This key already has ${PER_KEY} change feeds open, the most one credential may have (${PER_KEY}); close one and retry.`);
    held[0].close();
    let again: Feed | undefined;
    await waitUntil(async () => {
      const attempt = await openFeed(h, `/v1/${db}/_changes?tables=todos`, { "x-api-key": h.accountKey });
      if (attempt.status === 200) again = attempt;
      return attempt.status === 200;
    });
    feeds.push(again!);
    expect(again!.status).toBe(200);
    for (const f of [...held.slice(1), again!]) f.close();
  });

  it("a write to another table does not wake a feed; a write to its table does", async () => {
    let feed: Feed | undefined;
    // The slots of the feeds just closed come back as their streams end.
    await waitUntil(async () => {
      const attempt = await openFeed(h, `/v1/${db}/_changes?tables=todos`, { "x-api-key": h.accountKey });
      if (attempt.status === 200) feed = attempt;
      return attempt.status === 200;
    });
    feeds.push(feed!);
    await feed!.waitFor(1, (f) => f.event === undefined && f.comment === undefined); // connected
    const before = feedWakeUps();
    for (let i = 0; i < 5; i++) expect((await h.request("POST", `/v1/${db}/notes`, { body: { body: `n${i}` } })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 100));
    expect(feedWakeUps() - before, "feeds woken by writes to another table").toBe(0);
    expect((await h.request("POST", `/v1/${db}/todos`, { body: { title: "mine" } })).status).toBe(201);
    const [event] = await feed!.waitFor(1, (f) => f.event === "insert", 3000); // well before the 5 s poll
    expect(event.data.record.title).toBe("mine");
    expect(feedWakeUps() - before).toBeGreaterThanOrEqual(1);
  });
});
