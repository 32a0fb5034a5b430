// A datetime policy means instants on both engines, in the list and in the feed alike, whichever way its
// literal is written: rows on both sides of the instant (a millisecond apart, and hours apart on the same day).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { MATRIX } from "../contract/contract-helpers";
import { type Feed, openFeed } from "../events/feed-client";
import { type Harness, startHarness } from "../helpers/harness";
import { type Fixture, makeFixture, putPolicies } from "./security-fixture";

const ROWS = [
  ["day before", "2026-05-31T23:00:00.000Z"],
  ["a millisecond before", "2026-06-01T11:59:59.999Z"],
  ["at the instant", "2026-06-01T12:00:00.000Z"],
  ["a millisecond after", "2026-06-01T12:00:00.001Z"],
  ["an hour after", "2026-06-01T13:00:00.000Z"],
  ["day after", "2026-06-02T00:00:00.000Z"],
] as const;
const UP_TO_NOON = ["day before", "a millisecond before", "at the instant"];

describe.each(MATRIX)("datetime policies on $engine via $adapter", ({ engine, adapter }) => {
  let h: Harness;
  let f: Fixture;
  const feeds: Feed[] = [];

  beforeAll(async () => {
    h = await startHarness(engine, adapter, { config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), pollMs: 100 } } });
    f = await makeFixture(h, "policytime");
    const made = await h.request("POST", `/api/v1/databases/${f.db}/tables`, {
      body: { name: "posts", columns: [{ name: "label", type: "varchar" }, { name: "publish_at", type: "datetime" }] },
    });
    expect(made.status, made.text).toBe(201);
  }, 60_000);
  afterAll(async () => {
    for (const feed of feeds) feed.close();
    await h?.close();
  });

  it.each([
    ["publish_at <= '2026-06-01T12:00:00Z'", UP_TO_NOON],
    ["publish_at <= '2026-06-01 12:00:00'", UP_TO_NOON],
    ["publish_at <= '2026-06-01T14:00:00+02:00'", UP_TO_NOON],
    ["publish_at > '2026-06-01T12:00:00.000Z'", ["a millisecond after", "an hour after", "day after"]],
    ["publish_at >= '2026-06-01' and publish_at < '2026-06-02'", ["a millisecond before", "at the instant", "a millisecond after", "an hour after"]],
  ])("%s: the list and the feed show the same rows, only those", async (policy, expected) => {
    await putPolicies(h, f.db, "posts", { select: policy });
    const feed = await openFeed(h, `/v1/${f.db}/_changes?tables=posts`, { authorization: `Bearer ${f.userA.token}` });
    feeds.push(feed);
    await feed.waitFor(1, (fr) => fr.event === undefined && fr.comment === undefined);
    const inserted = await h.request("POST", `/v1/${f.db}/posts`, { body: ROWS.map(([label, at]) => ({ label: `${policy}: ${label}`, publish_at: at })) });
    expect(inserted.status, inserted.text).toBe(201);
    const mine = (label: string) => label.startsWith(`${policy}: `);
    const list = await h.request("GET", `/v1/${f.db}/posts?_limit=1000`, f.bearer(f.userA.token));
    const listed = list.body.map((r: { label: string }) => r.label).filter(mine);
    const fed = (await feed.waitFor(expected.length)).map((e) => e.data.record.label as string);
    await new Promise((r) => setTimeout(r, 300));
    const labels = expected.map((l) => `${policy}: ${l}`);
    expect(listed).toEqual(labels);
    expect(feed.events().map((e) => e.data.record.label)).toEqual(labels);
    expect(fed).toEqual(labels);
  });
});
