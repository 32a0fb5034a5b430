// The data OpenAPI documents 429 where the owner's plan has a request rate, and the reply then is real.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>; components: { responses: Record<string, { headers: object }> } };

describe.each(ENGINES)("429 in the data OpenAPI (%s)", (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine, "node");
  }, 60_000);
  afterAll(async () => h?.close());

  const makeDb = async (key: string) => {
    const reply = await h.request("POST", "/api/v1/databases", { key, body: { name: "Docs", tables: [{ name: "notes", columns: [{ name: "body", type: "text" }] }] } });
    expect(reply.status).toBe(201);
    return reply.body.instance as string;
  };

  it("documents 429 with its headers for a plan with a rate, and the 429 happens", async () => {
    const { key } = await h.createAccount();
    const db = await makeDb(key);
    const doc = (await h.request("GET", `/v1/${db}/openapi.json`, { key })).body as Doc;
    for (const [path, method] of [["/notes", "get"], ["/notes", "post"], ["/notes/{id}", "delete"]]) {
      expect(doc.paths[path][method].responses["429"], `${method} ${path}`).toEqual({ $ref: "#/components/responses/PlanRateLimited" });
    }
    expect(Object.keys(doc.components.responses.PlanRateLimited.headers)).toEqual(["Retry-After", "RateLimit-Policy", "RateLimit"]);
    const replies = await Promise.all(Array.from({ length: 14 }, () => h.request("GET", `/v1/${db}/notes`, { key })));
    expect(replies.some((r) => r.status === 429)).toBe(true);
  });

  it("documents no 429 for the operator's unlimited databases", async () => {
    const db = await makeDb(h.accountKey);
    const doc = (await h.request("GET", `/v1/${db}/openapi.json`)).body as Doc;
    expect(doc.paths["/notes"].get.responses["429"]).toBeUndefined();
    expect(doc.components.responses.PlanRateLimited).toBeUndefined();
  });

  it("documents 402 on the management API only where a quota is metered", async () => {
    const doc = (await h.request("GET", "/api/v1/openapi.json")).body as Doc;
    const with402 = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([, op]) => op.responses?.["402"]).map(([m]) => `${m} ${path}`));
    // Databases count against the owner's plan; invites against its invitee cap and the roles it may give; an AI
    // build against the month's AI calls, and applying one creates a database; a docs domain needs custom_domain;
    // a webhook counts against the webhooks per database; a restore and a clone each create a database.
    expect(with402).toEqual([
      "post /databases",
      "post /team/invites",
      "patch /team/members/{account}",
      "post /ai/builds",
      "post /ai/builds/{build}/apply",
      "put /databases/{instance}/docs",
      "post /databases/{instance}/webhooks",
      "post /databases/restore",
      "post /databases/{instance}/clone",
    ]);
  });
});
