// A client that goes away in the middle of a multipart upload: the request ends on the server (nothing waits on
// the rest of the body), the part stored so far is removed, and the quota reservation is given back.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { createDatabase } from "../contract/contract-helpers";
import { databaseId, storedKeys } from "./files-helpers";

const PLAN = { max_databases: 5, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: null, max_webhooks_per_database: null, storage_bytes: 1_000_000_000 };

describe.each(ENGINES)("an upload cut off by its client on %s", (engine) => {
  let h: Harness;
  let db: string;
  let key: string;
  let id: number;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    expect((await h.request("PUT", `/api/v1/plans/abort-${engine}`, { body: PLAN })).status).toBe(200);
    const owner = await h.createAccount();
    key = owner.key;
    expect((await h.request("PATCH", `/api/v1/accounts/${owner.accountId}`, { body: { plan: `abort-${engine}` } })).status).toBe(200);
    db = await createDatabase(h, `abort ${engine}`, [{ name: "items", columns: [{ name: "pic", type: "file" }] }], key);
    id = await databaseId(h, db);
  });
  afterAll(async () => h?.close());

  const reservations = async () => (await h.app.engine.meta.selectFrom("file_reservations").select("id").where("database_id", "=", id).execute()).length;

  it("leaves no file and no reservation once the client is gone", async () => {
    const boundary = "tabula-boundary";
    const url = new URL(`${h.baseUrl}/v1/${db}/items`);
    const total = 4 * 1024 * 1024;
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "x-api-key": key, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(total) } });
    req.on("error", () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="pic"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    req.write(Buffer.alloc(256 * 1024, 7));
    const deadline = Date.now() + 10_000;
    while ((await reservations()) === 0) {
      if (Date.now() > deadline) throw new Error("the upload never reserved its bytes");
      await new Promise((r) => setTimeout(r, 20));
    }
    req.destroy();
    while ((await reservations()) > 0) {
      if (Date.now() > deadline) throw new Error("the reservation is still held after the client left");
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await storedKeys(h, `${id}/`)).toEqual([]);
  });
});
