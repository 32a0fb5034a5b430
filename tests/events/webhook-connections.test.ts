// A delivery attempt and the receiver's connections: a pooled connection the receiver drops as it is reused
// (its idle time-out firing as the request goes out) costs no attempt, the request goes again on a new
// connection; a new connection's failure is the attempt's, and nothing is sent twice on it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "../../lib/webhooks/post-webhook";

/** A receiver that answers 200 to a connection's first `answered` requests and drops the connection on the next. */
const dropAfter = async (answered: number) => {
  const requests: { connection: number; body: string }[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const connection = (req.socket as { n?: number }).n!;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ connection, body: Buffer.concat(chunks).toString("utf8") });
      const onThisConnection = requests.filter((r) => r.connection === connection).length;
      if (onThisConnection > answered) req.socket.destroy();
      else res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.on("connection", (socket) => Object.assign(socket, { n: ++connections }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
};

const post = (url: string, body: string) => postWebhook({ url, headers: { "content-type": "application/json" }, body, timeoutMs: 5000, allowPrivate: true });

describe("a delivery attempt's connections", () => {
  const open: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });

  it("a pooled connection dropped as it is reused: the request goes again on a new connection and the attempt succeeds", async () => {
    const receiver = await dropAfter(1);
    open.push(receiver);
    expect((await post(receiver.url, '{"n":1}')).status).toBe(200);
    const second = await post(receiver.url, '{"n":2}');
    expect(second).toMatchObject({ status: 200, body: "ok" });
    expect(second.error).toBeUndefined();
    // The first connection took n=1 and dropped n=2; a second connection carried n=2 again.
    expect(receiver.requests).toEqual([
      { connection: 1, body: '{"n":1}' },
      { connection: 1, body: '{"n":2}' },
      { connection: 2, body: '{"n":2}' },
    ]);
  });

  it("a new connection dropped before the answer fails the attempt, and the request is not sent again", async () => {
    const receiver = await dropAfter(0);
    open.push(receiver);
    const result = await post(receiver.url, '{"n":1}');
    expect(result.status).toBeUndefined();
    expect(result.error).toBe("socket hang up");
    expect(receiver.connections()).toBe(1);
    expect(receiver.requests).toEqual([{ connection: 1, body: '{"n":1}' }]);
  });
});
