// A database with auth on and a users table (email, password, name), a loopback SMTP server that keeps every
// message it receives, and readers for the links and codes in those messages. Shared by tests/db-auth.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { expect } from "vitest";
import type { Harness, Reply } from "../helpers/harness";
import { createDatabase } from "../contract/contract-helpers";

export type Received = { from: string; to: string[]; raw: string; text: string };

/** The message with quoted-printable soft breaks joined and `=3D` decoded (links wrap at 76 columns). */
const decode = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");

/** An SMTP server on a loopback port (`port` to reuse one, e.g. after a stop) that keeps every message. */
export const startSmtp = async (port = 0) => {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw, text: decode(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
export type Smtp = Awaited<ReturnType<typeof startSmtp>>;

/** Waits until a mail to `to` beyond the first `after` ones has arrived, and returns it. */
export const waitForMail = async (smtp: Smtp, to: string, after = 0, timeoutMs = 10_000): Promise<Received> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.received.filter((m) => m.to.includes(to))[after];
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail #${after + 1} to ${to} within ${timeoutMs} ms (received: ${smtp.received.map((m) => m.to.join()).join("; ")})`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

export const mailsTo = (smtp: Smtp, to: string) => smtp.received.filter((m) => m.to.includes(to));

/** The `token` query parameter of the first link in a mail's text. */
export const tokenIn = (mail: { text: string }) => {
  const match = /[?&]token=([\w-]+)/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  return match![1];
};

/** The six-digit code of an OTP mail. */
export const codeIn = (mail: { text: string }) => {
  const match = /\b(\d{6})\b/.exec(mail.text.split(/\r?\n\r?\n/).slice(1).join("\n"));
  expect(match, mail.text).not.toBeNull();
  return match![1];
};

export const PASSWORD = "first-password-1";
export const APP_URL = "https://app.example.com/auth/callback";

/** A database with a users table and auth on (sign-up open), with more settings from `extra`. */
export const makeAuthDatabase = async (h: Harness, name: string, extra: Record<string, unknown> = {}) => {
  const db = await createDatabase(h, name, [
    {
      name: "users",
      columns: [
        { name: "email", type: "varchar", unique: true, nullable: false },
        { name: "password", type: "password", nullable: false },
        { name: "name", type: "varchar" },
      ],
    },
  ]);
  const reply = await h.request("PUT", `/api/v1/databases/${db}/auth`, {
    body: { enabled: true, users_table: "users", login_column: "email", password_column: "password", signup: true, redirect_urls: [APP_URL], ...extra },
  });
  expect(reply.status, reply.text).toBe(200);
  return db;
};

/** Calls a database's auth path as an anonymous client from its own address (each test its own limits). */
export const authClient = (h: Harness, db: string, address = "10.0.0.1") => {
  const call = (method: string, path: string, body?: unknown, token?: string): Promise<Reply> =>
    h.request(method, `/v1/${db}/auth/${path}`, {
      body,
      key: null,
      headers: { "x-forwarded-for": address, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  return {
    post: (path: string, body?: unknown, token?: string) => call("POST", path, body, token),
    get: (path: string, token?: string) => call("GET", path, undefined, token),
  };
};

/** Makes a user through the secret key (no mail, no verification). */
export const addUser = async (h: Harness, db: string, email: string, password = PASSWORD) => {
  const reply = await h.request("POST", `/v1/${db}/users`, { body: { email, password } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.id as number;
};
