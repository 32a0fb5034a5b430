// Starts a real Tabula app on a fresh SQLite folder or MariaDB schema and speaks HTTP to it, through either
// adapter: "node" (the production node:http handler, real sockets) or "route" (the Next route handlers,
// called in-process with real web Requests).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { type Connection, createConnection, createPool } from "mysql2/promise";
import { inject } from "vitest";
import { type CoreServer, listenCore } from "./core-server";
import { type App, createApp } from "../../lib/app";
import type { Config, EngineKind } from "../../lib/config";
import { createAccount } from "../../lib/services/accounts/create-account";
import { consoleReaderName } from "../../lib/sql-console/mysql-console-reader";

export type Adapter = "node" | "route";

export const ENGINES: EngineKind[] = process.env.TEST_MYSQL_URL ? ["sqlite", "mysql"] : ["sqlite"];

export type Reply = { status: number; headers: Headers; body: any; text: string };

export type RequestOptions = {
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Secret key sent as x-api-key; defaults to the harness account's key; null sends none. */
  key?: string | null;
};

export type Harness = {
  engine: EngineKind;
  adapter: Adapter;
  app: App;
  /** The account created for this harness and its account-wide secret key. */
  accountId: number;
  accountKey: string;
  /** Where the node adapter listens (http://127.0.0.1:port); a placeholder origin for the route adapter. */
  baseUrl: string;
  request: (method: string, path: string, options?: RequestOptions) => Promise<Reply>;
  createAccount: () => Promise<{ accountId: number; key: string }>;
  close: () => Promise<void>;
};

export type HarnessOptions = {
  /** A MariaDB server other than TEST_MYSQL_URL's (mysql engine), e.g. one the test starts and stops. */
  mysqlUrl?: string;
  /** More configuration (redisUrl, metrics, ...). */
  config?: Partial<Config>;
};

/**
 * OAuth settings fixed for tests rather than read from the environment: a worker keeps its process.env from one
 * file to the next, and next-auth's set-up writes NEXTAUTH_URL there, which would become the public URL of every
 * later harness. Callbacks are then built from the request's origin, the harness's own port.
 */
const TEST_OAUTH = { googleIssuer: "https://accounts.google.com", githubUrl: "https://github.com", githubApiUrl: "https://api.github.com" };

const serverOf = (url: URL) => ({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username || "root"), password: decodeURIComponent(url.password) });

/** The statements that copy a migrated template (tests/helpers/meta-template.ts) into a schema, read once per worker. */
const metaCopies = new Map<string, Promise<string[]>>();

const readTemplate = async (connection: Connection, template: string): Promise<string[]> => {
  const [tables] = await connection.query("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name", [template]);
  const copies: string[] = [];
  for (const { t } of tables as { t: string }[]) {
    const [[shown]] = (await connection.query(`SHOW CREATE TABLE \`${template}\`.\`${t}\``)) as unknown as [Record<string, string>[]];
    const [rows] = await connection.query(`SELECT 1 FROM \`${template}\`.\`${t}\` LIMIT 1`);
    copies.push((rows as unknown[]).length ? `${shown["Create Table"]};\nINSERT INTO \`${t}\` SELECT * FROM \`${template}\`.\`${t}\`` : shown["Create Table"]);
  }
  if (!copies.length) throw new Error(`the metadata template ${template} has no tables`);
  return copies;
};

/** Connections that create the copied tables side by side (the server overlaps their file writes). */
const COPY_CONNECTIONS = 4;

/** Makes `meta` a copy of the migrated template: the same tables, keys, rows and AUTO_INCREMENT counters. */
const copyMetaSchema = async (base: URL, meta: string, template: string) => {
  const connections = await Promise.all(Array.from({ length: COPY_CONNECTIONS }, () => createConnection({ ...serverOf(base), multipleStatements: true })));
  try {
    if (!metaCopies.has(template)) metaCopies.set(template, readTemplate(connections[0], template).catch((err: unknown) => {
      metaCopies.delete(template);
      throw err;
    }));
    const copies = await metaCopies.get(template)!;
    await connections[0].query(`CREATE DATABASE \`${meta}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    await Promise.all(connections.map((connection, i) => {
      const mine = copies.filter((_, n) => n % COPY_CONNECTIONS === i);
      return connection.query(["SET foreign_key_checks = 0", `USE \`${meta}\``, ...mine].join(";\n"));
    }));
  } finally {
    await Promise.all(connections.map((connection) => connection.end()));
  }
};

const testConfig = (engine: EngineKind, mysqlUrl = process.env.TEST_MYSQL_URL): { config: Config; cleanup: () => Promise<void> } => {
  const id = randomBytes(4).toString("hex");
  if (engine === "sqlite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-test-"));
    return {
      config: { engine, dataDir, bcryptCost: 4, oauth: { ...TEST_OAUTH } },
      cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const base = new URL(mysqlUrl!);
  const meta = `tabula_t_${id}`;
  base.pathname = `/${meta}`;
  return {
    config: { engine, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "tabula-test-")), databaseUrl: base.toString(), bcryptCost: 4, oauth: { ...TEST_OAUTH } },
    cleanup: async () => {
      const pool = createPool(serverOf(base));
      const [rows] = await pool.query("SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name = ? OR schema_name LIKE ?", [meta, `${meta}\\_\\_%`]);
      for (const { s } of rows as { s: string }[]) {
        await pool.query(`DROP DATABASE \`${s}\``);
        // The SQL console's reader of a database the test did not delete itself (none if the user may not read accounts).
        const [readers] = await pool.query("SELECT Host AS host FROM mysql.user WHERE User = ?", [consoleReaderName(s)]).catch(() => [[]]);
        for (const { host } of readers as { host: string }[]) await pool.query("DROP USER ?@?", [consoleReaderName(s), host]);
      }
      await pool.end();
    },
  };
};

const routeModules = async () => ({
  data: await import("../../app/v1/[db]/[[...path]]/route"),
  management: await import("../../app/api/v1/[[...path]]/route"),
});

export const startHarness = async (engine: EngineKind, adapter: Adapter = "node", options: HarnessOptions = {}): Promise<Harness> => {
  const { config, cleanup } = testConfig(engine, options.mysqlUrl);
  // On TEST_MYSQL_URL's server the metadata schema starts as a copy of the lane's migrated one; createApp finds
  // every migration applied. A private MariaDB (options.mysqlUrl) migrates its own.
  const template = engine === "mysql" && !options.mysqlUrl ? inject("metaTemplate") : "";
  if (template) await copyMetaSchema(new URL(config.databaseUrl!), new URL(config.databaseUrl!).pathname.slice(1), template);
  const app = await createApp({ ...config, ...options.config });
  let baseUrl = "http://tabula.test";
  let server: CoreServer | undefined;
  if (adapter === "node") {
    server = await listenCore(app);
    baseUrl = server.baseUrl;
  } else {
    // The route handlers read the process-wide app; point it at this harness's app.
    (globalThis as { __tabulaApp?: Promise<App> }).__tabulaApp = Promise.resolve(app);
  }
  const routes = adapter === "route" ? await routeModules() : undefined;

  const newAccount = async () => {
    const { account, key } = await createAccount(app, { email: `user-${randomBytes(5).toString("hex")}@example.com`, password: "correct horse battery" });
    return { accountId: account.id, key: key.key };
  };
  const first = await newAccount();

  const request = async (method: string, urlPath: string, options: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? first.key : options.key;
    if (key !== null && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization")) headers["x-api-key"] ??= key;
    let body: string | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const init = { method, headers, body };
    let response: Response;
    if (routes) {
      const module = urlPath.startsWith("/api/v1") ? routes.management : routes.data;
      const handler = (module as unknown as Record<string, ((r: Request) => Promise<Response>) | undefined>)[method];
      response = handler ? await handler(new Request(`${baseUrl}${urlPath}`, init)) : new Response(null, { status: 405 });
    } else {
      response = await fetch(`${baseUrl}${urlPath}`, init);
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };

  return {
    engine,
    adapter,
    app,
    accountId: first.accountId,
    accountKey: first.key,
    baseUrl,
    request,
    createAccount: newAccount,
    close: async () => {
      await server?.close();
      await app.close();
      await cleanup();
    },
  };
};
