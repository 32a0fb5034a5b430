// A webhook receiver on loopback for the delivery tests: records every request (headers, body, time) and
// answers as the test scripts it per attempt: a status, or a hang past the sender's timeout.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { id: string; timestamp: string; signature: string; body: string; at: number; headers: Record<string, string> };
/** What to do with the n-th (0-based) request carrying a webhook-id: a status, or "hang". */
export type Script = (messageId: string, attempt: number, body: any) => number | "hang";

export const startReceiver = async (script: Script = () => 200, responseBody = "ok") => {
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"]);
      const n = attempts.get(id) ?? 0;
      attempts.set(id, n + 1);
      received.push({ id, timestamp: String(req.headers["webhook-timestamp"]), signature: String(req.headers["webhook-signature"]), body, at: Date.now(), headers: req.headers as Record<string, string> });
      const answer = script(id, n, JSON.parse(body));
      if (answer === "hang") return; // the sender times out; the socket is destroyed on close()
      res.writeHead(answer, { "content-type": "text/plain" }).end(responseBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
};

export const waitUntil = async (check: () => boolean | Promise<boolean>, ms = 15_000, what = "condition") => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};
