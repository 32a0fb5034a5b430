// A Server-Sent Events client for the feed tests, over either adapter: a real socket to the node handler, or
// the Next route handler called with a web Request. Frames are parsed as EventSource would.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeHandler } from "../../lib/transport/node-adapter";
import type { Harness } from "../helpers/harness";

export type Frame = { event?: string; id?: string; data?: any; comment?: string };

export type Feed = {
  status: number;
  headers: Headers;
  frames: Frame[];
  /** Resolves when `count` frames matching `match` have arrived (rejects after `ms`). */
  waitFor: (count: number, match?: (f: Frame) => boolean, ms?: number) => Promise<Frame[]>;
  /** Events (insert/update/delete/reset) only. */
  events: () => Frame[];
  close: () => void;
};

const servers = new WeakMap<Harness, Promise<string>>();

const nodeBase = (h: Harness) => {
  let base = servers.get(h);
  if (!base) {
    const handle = createNodeHandler(h.app);
    const server = http.createServer(async (req, res) => {
      if (!(await handle(req, res))) res.writeHead(404).end();
    });
    base = new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    server.unref();
    servers.set(h, base);
  }
  return base;
};

const parseFrame = (block: string): Frame => {
  const frame: Frame = {};
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    const at = line.indexOf(": ");
    if (at === -1) continue;
    const [field, value] = [line.slice(0, at), line.slice(at + 2)];
    if (field === "event") frame.event = value;
    if (field === "id") frame.id = value;
    if (field === "data") frame.data = JSON.parse(value);
  }
  return frame;
};

/** `base`: another server's address (a second process) instead of the harness's. */
export const openFeed = async (h: Harness, path: string, headers: Record<string, string> = {}, base?: string): Promise<Feed> => {
  const abort = new AbortController();
  let response: Response;
  if (base || h.adapter === "node") response = await fetch(`${base ?? (await nodeBase(h))}${path}`, { headers, signal: abort.signal });
  else {
    const route = await import("../../app/v1/[db]/[[...path]]/route");
    response = await route.GET(new Request(`http://tabula.test${path}`, { headers, signal: abort.signal }));
  }
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  if (response.body && response.headers.get("content-type")?.startsWith("text/event-stream")) {
    void (async () => {
      reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader!.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) !== -1) {
            frames.push(parseFrame(buffer.slice(0, end)));
            buffer = buffer.slice(end + 2);
          }
          for (const w of waiters) w();
        }
      } catch {
        // aborted
      }
    })();
  }
  const isEvent = (f: Frame) => f.event !== undefined;
  return {
    status: response.status,
    headers: response.headers,
    frames,
    events: () => frames.filter(isEvent),
    waitFor: (count, match = isEvent, ms = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.filter(match);
          if (found.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited ${ms} ms for ${count} frames; got ${JSON.stringify(frames)}`));
        }, ms);
        waiters.add(check);
        check();
      }),
    // As EventSource.close(): the body is cancelled too (a route handler's stream ends only on cancel).
    close: () => {
      abort.abort();
      void reader?.cancel().catch(() => undefined);
    },
  };
};
