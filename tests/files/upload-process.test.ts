// What only a real server process shows. A process killed (SIGKILL) after it stored an upload's files and before
// its row committed leaves no row and loses nothing a row names; the file it stored is an orphan the sweeper
// removes. And a file past its limit is refused with 413 while the client is still sending: the answer comes
// before the body's end, and the connection closes.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startServerProcess } from "../helpers/server-process";
import { createDatabase } from "../contract/contract-helpers";
import { sweepOrphans } from "../../lib/api/files/sweep-orphans";
import { databaseId, download, form, pngBytes, sha256, storedKeys, upload } from "./files-helpers";

describe.each(ENGINES)("upload cut off by kill -9 on %s", (engine) => {
  let h: Harness;
  let db: string;
  let prefix: string;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    db = await createDatabase(h, `crash ${engine}`, [{ name: "items", columns: [{ name: "title", type: "varchar" }, { name: "pic", type: "file" }] }]);
    prefix = `${await databaseId(h, db)}/`;
  });
  afterAll(async () => h?.close());

  it("keeps every committed file, commits no row, and the sweeper removes the orphan", async () => {
    const kept = await upload(h, "POST", `/v1/${db}/items`, [{ name: "title", value: "before" }, { name: "pic", bytes: pngBytes(2000), filename: "kept.png" }]);
    expect(kept.status, kept.text).toBe(201);
    const server = await startServerProcess(h, { FILES_TEST_PAUSE_MS: "60000" });
    try {
      const sending = fetch(`${server.base}/v1/${db}/items`, { method: "POST", headers: { "x-api-key": h.accountKey }, body: form([{ name: "title", value: "cut off" }, { name: "pic", bytes: pngBytes(3000), filename: "lost.png" }]) }).catch((err: Error) => err);
      const deadline = Date.now() + 20_000;
      while ((await storedKeys(h, prefix)).length < 2) {
        if (Date.now() > deadline) throw new Error(`the server stored nothing: ${server.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      server.child.kill("SIGKILL");
      await server.exited;
      expect(await sending).toBeInstanceOf(Error);
    } finally {
      server.child.kill("SIGKILL");
    }
    const rows = await h.request("GET", `/v1/${db}/items`);
    expect(rows.body.map((r: { title: string }) => r.title)).toEqual(["before"]);
    const keys = await storedKeys(h, prefix);
    expect(keys).toHaveLength(2);
    expect(await sweepOrphans(h.app, { graceMs: 0 })).toBe(1);
    expect(await storedKeys(h, prefix)).toEqual(keys.filter((k) => k.endsWith(`/${kept.body.pic.name}`)));
    const got = await download(h, kept.body.pic.url);
    expect(sha256(got.bytes)).toBe(sha256(pngBytes(2000)));
  });
});

describe("413 while the body is still streaming", () => {
  let h: Harness;
  let db: string;

  beforeAll(async () => {
    h = await startHarness("sqlite", "node", { config: { fileMaxBytes: 1_000_000 } });
    db = await createDatabase(h, "streaming", [{ name: "items", columns: [{ name: "pic", type: "file" }] }]);
  });
  afterAll(async () => h?.close());

  it("answers 413 before the client has sent the whole body, and stores nothing", async () => {
    const boundary = "tabula-boundary";
    const url = new URL(`${h.baseUrl}/v1/${db}/items`);
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string; sentBefore: number }>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "x-api-key": h.accountKey, "content-type": `multipart/form-data; boundary=${boundary}`, "transfer-encoding": "chunked" } });
      req.on("response", (res) => {
        const sentBefore = sent;
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sentBefore }));
      });
      req.on("error", () => undefined);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="pic"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 7);
      // Sends up to 20 MB, slowly enough for the answer to arrive first; never ends the body.
      const pump = () => {
        if (sent >= 20_000_000 || req.destroyed) return;
        sent += chunk.length;
        req.write(chunk, () => setImmediate(pump));
      };
      pump();
      setTimeout(() => reject(new Error("no answer within 15 s")), 15_000);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toBe("payload_too_large");
    expect(answer.sentBefore).toBeLessThan(20_000_000);
    expect(await storedKeys(h, `${await databaseId(h, db)}/`)).toEqual([]);
  });
});
