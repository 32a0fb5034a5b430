// A cursor that names its row by id (a long sort key) is resolved under the caller's select policy: a hidden
// row answers exactly as a deleted one, so a forged id tells nothing about rows the caller cannot see.
// Pairs per caller kind: the secret key (server role) against JWT user A.
import { beforeAll, describe, expect, it } from "vitest";
import { MATRIX, useHarness } from "../contract/contract-helpers";
import { bearer, type Fixture, makeFixture } from "./security-fixture";

const byRow = (sort: string, id: number) => Buffer.from(JSON.stringify([sort, { row: [id] }])).toString("base64url");
const EXPIRED = "_after continues from a row that is no longer there; start again without _after";

describe.each(MATRIX)("by-row cursors under row policies on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let f: Fixture;
  const page = (id: number, token?: string) => ctx.h.request("GET", `/v1/${f.db}/notes?_sort=body&_limit=50&_after=${byRow("body", id)}`, token ? bearer(token) : {});

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `rls cursors ${target.engine}`);
  });

  it("user A: should block a cursor naming B's private note, with the answer a deleted row gets", async () => {
    const hidden = await page(f.notes.b1, f.userA.token);
    const missing = await page(999_999, f.userA.token);
    const expected = { status: 422, body: { error: "validation_failed", message: EXPIRED, errors: [{ field: "_after", code: "cursor_expired", message: EXPIRED }] } };
    expect({ status: hidden.status, body: hidden.body }).toEqual(expected);
    expect({ status: missing.status, body: missing.body }).toEqual(expected);
  });

  it("user A: should allow a cursor naming a note A sees (B's public one)", async () => {
    const reply = await page(f.notes.bp, f.userA.token);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.every((n: { owner_id: number; public: boolean }) => n.public || n.owner_id === f.userA.id)).toBe(true);
  });

  it("the secret key: should allow a cursor naming any note, B's private one included", async () => {
    expect((await page(f.notes.b1)).status).toBe(200);
  });
});
