// Shared pieces of the docs-domain suites: the app pointed at a loopback DNS server, a database with a table,
// the docs routes, and plain HTTP with any Host header through the production node handler.
import http from "node:http";
import { expect } from "vitest";
import type { App } from "../../lib/app";
import { listenCore } from "../helpers/core-server";
import type { Harness } from "../helpers/harness";

export const CNAME_TARGET = "tabula.test";
export const API_URL = "https://tabula.test";

/** Points the app's lookups at `servers` (what DNS_SERVERS does), with a short timeout. */
export const useDns = (app: App, servers: string[], timeoutMs = 1000) => {
  app.config.docs = { cnameTarget: CNAME_TARGET, apiUrl: API_URL, dnsServers: servers, dnsTimeoutMs: timeoutMs, recheckMs: 0 };
};

let counter = 0;

/** A database with one table, owned by the key's account; returns its instance. */
export const makeDatabase = async (h: Harness, name: string, key = h.accountKey) => {
  const reply = await h.request("POST", "/api/v1/databases", { key, body: { name: `${name} ${++counter}`, tables: [{ name: "products", columns: [{ name: "title", type: "varchar" }] }] } });
  expect(reply.status, reply.text).toBe(201);
  return { instance: reply.body.instance as string, name: reply.body.name as string };
};

export const getDocs = (h: Harness, instance: string, key = h.accountKey) => h.request("GET", `/api/v1/databases/${instance}/docs`, { key });

export const putDocs = (h: Harness, instance: string, body: unknown, key = h.accountKey) => h.request("PUT", `/api/v1/databases/${instance}/docs`, { key, body });

export const verify = (h: Harness, instance: string, key = h.accountKey) => h.request("POST", `/api/v1/databases/${instance}/docs/verify`, { key });

/** A PUT that must succeed: 200, and its body. */
export const setDocs = async (h: Harness, instance: string, body: unknown, key = h.accountKey) => {
  const reply = await putDocs(h, instance, body, key);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
};

export type HostReply = { status: number; type: string; text: string };

/** The production node handler on a real socket; anything it does not serve (Next's pages) is a plain 404 "next". */
export const startHostServer = async (app: App) => {
  const { port, close } = await listenCore(app, { otherwise: (res) => res.writeHead(404, { "content-type": "text/plain" }).end("next") });
  /** GET `path` with this Host header (a browser would send it for a domain CNAMEd to us). */
  const get = (host: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<HostReply>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, method: "GET", headers: { ...headers, host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
      });
      req.on("error", reject);
      req.end();
    });
  return { port, get, close };
};
