// SIGTERM on a real server process (server.ts): a request in flight (its body still uploading) completes and
// its row is stored, new connections are refused at once, and the process exits 0 after closing its pools.
// Its log lines are JSON and carry the request ids. Engine-independent process behaviour: run on SQLite.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { startServerProcess } from "../helpers/server-process";
import { sleep } from "../limits/limits-fixture";

/** Opens a POST and sends its first half; the returned function sends the rest and resolves with the reply. */
const startSlowPost = (port: number, path: string, key: string, body: string) => {
  let finish = () => {};
  const reply = new Promise<{ status: number; text: string; connection?: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", agent: false, headers: { "x-api-key": key, "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-request-id": "slow-upload-1" } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => void (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, text, connection: res.headers.connection }));
    });
    req.on("error", reject);
    req.write(body.slice(0, 5));
    finish = () => req.end(body.slice(5));
  });
  return () => {
    finish();
    return reply;
  };
};

const connectOutcome = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });

describe("graceful shutdown on SIGTERM", () => {
  let h: Harness;
  let db: string;

  beforeAll(async () => {
    h = await startHarness("sqlite", "node");
    db = await createDatabase(h, "drain", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
  });

  afterAll(async () => {
    await h?.close();
  });

  it("finishes the request in flight, refuses new connections, closes the pools and exits 0", async () => {
    const server = await startServerProcess(h);
    expect((await server.request("GET", `/v1/${db}/items`, h.accountKey)).status).toBe(200);
    const finishPost = startSlowPost(server.port, `/v1/${db}/items`, h.accountKey, JSON.stringify({ label: "in flight" }));
    await sleep(200); // the server has the request's head and part of its body

    server.child.kill("SIGTERM");
    await sleep(300);
    expect(await connectOutcome(server.port)).toBe("ECONNREFUSED");
    expect(server.child.exitCode).toBeNull(); // still draining: the upload is not done

    const reply = await finishPost();
    expect(reply.status, reply.text).toBe(201);
    expect(JSON.parse(reply.text)).toMatchObject({ id: 1, label: "in flight" });
    expect(reply.connection).toBe("close");
    expect(await server.exited).toBe(0);

    // Stored for good: the harness (another connection to the same files) reads it back.
    expect((await h.request("GET", `/v1/${db}/items`)).body.map((r: { label: string }) => r.label)).toEqual(["in flight"]);
    const messages = server.logs().map((l) => l.msg);
    expect(messages.indexOf("shutting down: refusing new connections, finishing requests in flight")).toBeLessThan(messages.lastIndexOf("request"));
    expect(messages.at(-1), JSON.stringify(server.logs())).toBe("stopped");
    expect(server.logs().find((l) => l.reqId === "slow-upload-1")).toMatchObject({ level: "info", method: "POST", route: "data", path: `/v1/${db}/items`, status: 201 });
  });

  it("an idle process exits 0 at once; keep-alive connections do not hold it", async () => {
    const server = await startServerProcess(h);
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http.get({ host: "127.0.0.1", port: server.port, path: "/healthz", agent }, (res) => res.resume().on("end", resolve)).on("error", reject),
    );
    const started = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    agent.destroy();
  });

  it("a connection with no request in flight does not hold it: a request head still arriving is closed at once", async () => {
    const server = await startServerProcess(h);
    const socket = net.connect(server.port, "127.0.0.1");
    socket.on("error", () => undefined);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(`GET /v1/${db}/items HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    await sleep(200);
    const started = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.logs().map((l) => l.msg).at(-1)).toBe("stopped");
    socket.destroy();
  });
});

describe("request logs of a real server process", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness("sqlite", "node");
  });

  afterAll(async () => {
    await h?.close();
  });

  it("one JSON line per request with its id: an incoming X-Request-Id is kept and echoed, otherwise one is made", async () => {
    const server = await startServerProcess(h);
    try {
      const given = await fetch(`${server.base}/api/v1/databases`, { headers: { "x-api-key": h.accountKey, "x-request-id": "client-id-42" } });
      expect(given.headers.get("x-request-id")).toBe("client-id-42");
      const made = await fetch(`${server.base}/v1/nosuch_db/items`, { headers: { "x-api-key": "sk_wrong" } });
      const madeId = made.headers.get("x-request-id")!;
      expect(madeId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      // A header that is not a plain token is not trusted into the logs.
      const unsafe = await fetch(`${server.base}/healthz`, { headers: { "x-request-id": "a b\"c" } });
      expect(unsafe.headers.get("x-request-id")).not.toBe('a b"c');

      await sleep(300);
      const lines = server.logs();
      expect(lines.every((l) => typeof l.level === "string" && typeof l.time === "string")).toBe(true);
      expect(lines.find((l) => l.reqId === "client-id-42")).toMatchObject({ level: "info", msg: "request", method: "GET", route: "management", path: "/api/v1/databases", status: 200 });
      expect(lines.find((l) => l.reqId === madeId)).toMatchObject({ msg: "request", route: "data", path: "/v1/nosuch_db/items", status: 401 });
      expect(typeof lines.find((l) => l.reqId === madeId)!.ms).toBe("number");
    } finally {
      await server.stop();
    }
  });

  it("LOG_LEVEL=warn keeps request lines out", async () => {
    const server = await startServerProcess(h, { LOG_LEVEL: "warn" });
    try {
      expect((await server.request("GET", "/healthz", null)).status).toBe(200);
      await sleep(200);
      expect(server.logs().filter((l) => l.msg === "request")).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
