// One HTTP request with its path exactly as given (fetch would tidy `/./` and `//` before sending) and from a
// chosen loopback address (127.0.0.x), so each test case can be its own client for per-address limits.
import http from "node:http";

export type RawReply = { status: number; headers: http.IncomingHttpHeaders; text: string; body: any };

export type RawRequest = { method?: string; path: string; body?: string; headers?: Record<string, string>; from?: string };

export const rawRequest = (base: string, { method = "POST", path, body, headers = {}, from = "127.0.0.1" }: RawRequest) =>
  new Promise<RawReply>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) };
    const req = http.request({ host: hostname, port, localAddress: from, method, path, headers: { ...length, ...headers } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => {
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
