// Multipart uploads and binary downloads through either adapter, and a look into the install's file store, for
// the file suites. The harness's own request speaks JSON text; these send FormData and read bytes.
import { createHash } from "node:crypto";
import { expect } from "vitest";
import type { Harness } from "../helpers/harness";
import { fileStoreOf } from "../../lib/api/files/file-scope";

type Part = { name: string; value: string } | { name: string; bytes: Uint8Array; filename: string; type?: string };

export const form = (parts: Part[]) => {
  const data = new FormData();
  for (const p of parts) {
    if ("value" in p) data.append(p.name, p.value);
    else data.append(p.name, new Blob([Buffer.from(p.bytes)], { type: p.type ?? "application/octet-stream" }), p.filename);
  }
  return data;
};

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

type Auth = { key?: string | null; token?: string };

const authHeaders = (h: Harness, auth: Auth = {}): Record<string, string> => {
  if (auth.token) return { authorization: `Bearer ${auth.token}` };
  const key = auth.key === undefined ? h.accountKey : auth.key;
  return key === null ? {} : { "x-api-key": key };
};

const routeHandler = async (method: string) => {
  const module = (await import("../../app/v1/[db]/[[...path]]/route")) as unknown as Record<string, (r: Request) => Promise<Response>>;
  return module[method];
};

/** Sends `init` to the data API through the harness's adapter and answers the raw Response. */
export const send = async (h: Harness, method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } & Auth = {}) => {
  const headers = { ...authHeaders(h, init), ...init.headers };
  const request = new Request(`${h.baseUrl}${path}`, { method, headers, body: init.body, duplex: "half" } as RequestInit);
  return h.adapter === "route" ? (await routeHandler(method))(request) : fetch(request);
};

/** A multipart write: status and the JSON body. */
export const upload = async (h: Harness, method: string, path: string, parts: Part[], auth: Auth = {}) => {
  const response = await send(h, method, path, { body: form(parts), ...auth });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, headers: response.headers };
};

/** A download: status, headers and the bytes. */
export const download = async (h: Harness, path: string, auth: Auth & { headers?: Record<string, string> } = {}) => {
  const response = await send(h, "GET", path, auth);
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
};

/** Every key the install's file store holds under the database (the harness's app). */
export const storedKeys = async (h: Harness, prefix = "") => {
  const keys: string[] = [];
  for await (const o of fileStoreOf(h.app).list(prefix)) keys.push(o.key);
  return keys.sort();
};

/** The database id of an instance (keys start with it). */
export const databaseId = async (h: Harness, instance: string) => {
  const row = await h.app.engine.meta.selectFrom("databases").select("id").where("instance", "=", instance).executeTakeFirstOrThrow();
  return row.id;
};

export const expectStatus = (reply: { status: number; text?: string }, status: number) => expect(reply.status, reply.text).toBe(status);

/** A PNG's first bytes (enough for a sniffer), then `size` bytes in all. */
export const pngBytes = (size = 64) => {
  const head = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head);
  return bytes;
};

export const pdfBytes = () => new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
