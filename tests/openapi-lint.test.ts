// The data and management OpenAPI documents pass three independent tools (Redocly, Spectral and
// openapi-typescript + tsc) and describe the schema they were built from. No database is needed.
import { DEFAULT_AUTH } from "../lib/meta/load-auth";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isWorkspacePermission, canRefuse } from "../lib/teams/permissions";
import { ROUTES } from "../lib/mgmt/routes";
import { buildManagementOpenApi } from "../lib/openapi/management-openapi";
import { buildOpenApi } from "../lib/openapi/build-openapi";
import { type FilterOp, TYPE_SPECS } from "../lib/schema/column-types";
import { COLUMN_TYPES, type ColumnDef, type DatabaseSchema, recordColumns, type TableDef } from "../lib/schema/types";
import type { LoadedDatabase } from "../lib/meta/schema-cache";

const ROOT = path.resolve(import.meta.dirname, "..");
const TMP = path.join(ROOT, "tests/.tmp/openapi-lint");
const CLI_TIMEOUT = 120_000;
/** A test waits for its job, which may queue behind the others: all of them together, at most. */
const JOB_WAIT = 300_000;
const DATA_URL = "http://localhost:3000/v1/shop_7k2m9x";
const MANAGEMENT_URL = "http://localhost:3000/api/v1";

type Doc = Record<string, any>;
type Run = { code: number; stdout: string; stderr: string };

const run = (command: string, args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    const bin = command.includes("/") ? command : path.join(ROOT, "node_modules/.bin", command);
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" };
    execFile(bin, args, { cwd: ROOT, env, timeout: CLI_TIMEOUT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });

// The linters are CPU-bound processes of 5-50 s each: they start together in beforeAll, two at a time (the
// machine's cores), and each test awaits its own. A job is a chain of runs (openapi-typescript, then tsc).
const SLOTS = 2;
let free = SLOTS;
const waiting: (() => void)[] = [];
const inSlot = async <T>(job: () => Promise<T>): Promise<T> => {
  if (free === 0) await new Promise<void>((r) => waiting.push(r));
  else free--;
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else free++;
  }
};
const jobs = new Map<string, Promise<Run[]>>();
const startJob = (key: string, job: () => Promise<Run[]>) => jobs.set(key, inSlot(job));
const jobResult = (key: string) => jobs.get(key)!;

const col = (name: string, type: ColumnDef["type"], extra: Partial<ColumnDef> = {}): ColumnDef => ({
  name,
  type,
  nullable: true,
  unique: false,
  ...extra,
});

/** Two tables that together use every column type, nullable and NOT NULL, unique and default. */
// Database auth on (authors as the users table), so the auth paths and the JWT scheme are linted too; with
// providers and optional MFA, so are the OAuth and two-factor paths; with verification required, sign-up's answer.
const AUTH = {
  ...DEFAULT_AUTH,
  enabled: true,
  users_table: "authors",
  login_column: "name",
  password_column: "password",
  signup: true,
  providers: [{ id: "github" as const, client_id: "c", client_secret: "s" }],
  mfa: "optional" as const,
  verification: "required" as const,
  secret: new Uint8Array(32),
};

/** The schema as the data path loads it: with the auth settings above, no hooks, no members, no plan rate. */
const loaded = (schema: DatabaseSchema): LoadedDatabase => ({ schema, auth: AUTH, hooks: new Map(), shared: false, requestsPerSecond: null });

const makeSchema = (): DatabaseSchema => {
  const authors: TableDef = {
    id: 1,
    name: "authors",
    columns: [
      col("name", "varchar", { length: 80, nullable: false, unique: true }),
      col("password", "password", { nullable: false }),
      col("bio", "text"),
      col("born_on", "date"),
      col("profile", "json"),
      col("nick", "varchar", { length: 3 }),
    ],
  };
  const books: TableDef = {
    id: 2,
    name: "book_items",
    columns: [
      col("title", "varchar", { nullable: false }),
      col("pages", "int"),
      col("isbn", "bigint", { unique: true }),
      col("price", "decimal", { precision: 8, scale: 2, nullable: false }),
      col("rating", "float"),
      col("in_stock", "boolean", { nullable: false, default: true }),
      col("released_at", "datetime"),
      col("meta", "json", { nullable: false }),
      col("status", "dropdown", { options: ["it's live", "draft"], nullable: false, default: "draft" }),
      col("author_id", "reference", { references: "authors", nullable: false }),
      col("weight", "decimal", { precision: 3, scale: 0 }),
      col("secret", "password"),
      col("cover", "file", { accept: ["image/*"], thumbs: ["100x100"] }),
      col("scans", "file", { multiple: true }),
    ],
  };
  return {
    id: 1,
    instance: "shop_7k2m9x",
    name: "Shop",
    ownerId: 1,
    engine: "sqlite",
    physical: "shop_7k2m9x.sqlite",
    version: 1,
    tables: new Map([
      [authors.name, authors],
      [books.name, books],
    ]),
    joins: new Map([
      [
        "books_by_author",
        {
          id: 1,
          name: "books_by_author",
          base: "book_items",
          joins: [{ table: "authors", on: [["book_items.author_id", "authors.id"]], type: "left" }],
          columns: [
            { column: "book_items.id", as: "book_id" },
            { column: "book_items.title", as: "title" },
            { column: "book_items.price", as: "price" },
            { column: "authors.name", as: "author" },
            { column: "authors.born_on", as: "born_on" },
          ],
        },
      ],
    ]),
  };
};

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

const operations = (doc: Doc) =>
  Object.entries(doc.paths as Record<string, Doc>).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path: p, method: m, op: item[m] as Doc })),
  );

const SUFFIX: Record<FilterOp, string> = {
  eq: "",
  ne: "_ne",
  gt: "_gt",
  gte: "_gte",
  lt: "_lt",
  lte: "_lte",
  like: "_like",
  ilike: "_ilike",
  in: "_in",
  null: "_null",
};

const listParamNames = (doc: Doc, table: string): string[] =>
  (doc.paths[`/${table}`].get.parameters as Doc[]).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split("/").pop()].name : p.name));

const writeDoc = (name: string, doc: unknown) => {
  const file = path.join(TMP, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
};

let files: Record<"data" | "management", string>;

beforeAll(() => {
  fs.mkdirSync(TMP, { recursive: true });
  files = {
    data: writeDoc("data", buildOpenApi(loaded(makeSchema()), { serverUrl: DATA_URL })),
    management: writeDoc("management", buildManagementOpenApi(MANAGEMENT_URL)),
  };
  for (const which of ["data", "management"] as const) {
    const out = path.join(TMP, `${which}.ts`);
    fs.rmSync(out, { force: true });
    startJob(`spectral ${which}`, async () => [await run("spectral", ["lint", files[which], "--ruleset", ".spectral.yaml", "--fail-severity", "error", "-f", "json"])]);
    startJob(`types ${which}`, async () => {
      const generated = await run("openapi-typescript", [files[which], "-o", out]);
      return generated.code === 0 ? [generated, await run("tsc", ["--strict", "--noEmit", "--skipLibCheck", out])] : [generated];
    });
    startJob(`redocly ${which}`, async () => [await run("redocly", ["lint", files[which], "--format=json"])]);
  }
  startJob("broken", async () => {
    const doc = buildOpenApi(loaded(makeSchema()), { serverUrl: DATA_URL }) as Doc;
    doc.paths["/authors"].post.operationId = doc.paths["/authors"].get.operationId;
    doc.components.schemas.Authors.example.id = "not a number";
    const file = writeDoc("broken", doc);
    return [await run("redocly", ["lint", file, "--format=json"]), await run("spectral", ["lint", file, "--ruleset", ".spectral.yaml", "--fail-severity", "error", "-f", "json"])];
  });
});

describe.each(["data", "management"] as const)("the %s document passes the linters", (which) => {
  it(
    "redocly lint (recommended) reports zero errors",
    async () => {
      const [result] = await jobResult(`redocly ${which}`);
      const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{")));
      const errors = report.problems.filter((p: Doc) => p.severity === "error").map((p: Doc) => `${p.ruleId}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
      expect(result.code).toBe(0);
    },
    JOB_WAIT,
  );

  it(
    "spectral lint (spectral:oas) reports zero errors",
    async () => {
      const [result] = await jobResult(`spectral ${which}`);
      const results = JSON.parse(result.stdout.slice(result.stdout.indexOf("[")));
      const errors = results.filter((r: Doc) => r.severity === 0).map((r: Doc) => `${r.code}: ${r.message} at ${r.path.join(".")}`);
      expect(errors).toEqual([]);
      expect(result.code).toBe(0);
    },
    JOB_WAIT,
  );

  it(
    "openapi-typescript generates types that compile with tsc --strict",
    async () => {
      const [generated, compiled] = await jobResult(`types ${which}`);
      expect(generated.code, generated.stderr).toBe(0);
      expect(fs.readFileSync(path.join(TMP, `${which}.ts`), "utf8")).toContain("export interface paths");
      expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    },
    JOB_WAIT,
  );
});

describe("the lint harness can fail", () => {
  it(
    "redocly and spectral both reject a document with a duplicate operationId and a wrong example",
    async () => {
      const [redocly, spectral] = await jobResult("broken");
      expect(redocly.code).not.toBe(0);
      expect(spectral.code).not.toBe(0);
    },
    JOB_WAIT,
  );
});

describe("the data document describes the schema", () => {
  const schema = makeSchema();
  const doc = buildOpenApi(loaded(schema), { serverUrl: DATA_URL }) as Doc;

  it("the fixture uses every column type", () => {
    const used = new Set([...schema.tables.values()].flatMap((t) => t.columns.map((c) => c.type)));
    expect([...used].sort()).toEqual([...COLUMN_TYPES].sort());
  });

  it("gives each join one GET path with list parameters over its output columns and a schema of them", () => {
    expect(Object.keys(doc.paths["/books_by_author"])).toEqual(["get"]);
    expect(doc.paths["/books_by_author/{id}"]).toBeUndefined();
    expect(listParamNames(doc, "books_by_author")).toEqual(
      expect.arrayContaining(["_limit", "_offset", "_sort", "book_id_in", "title_ilike", "price_gte", "author", "born_on_null"]),
    );
    const record = doc.components.schemas["BooksByAuthor.JoinRecord"];
    expect(Object.keys(record.properties)).toEqual(["book_id", "title", "price", "author", "born_on"]);
    expect(record.properties.book_id).toMatchObject({ type: "integer" });
    expect(doc.paths["/books_by_author"].get["x-codeSamples"][0].source).toContain("/books_by_author");
  });

  it("documents _select, _expand, _after, the Link header and an _aggregate path per table and join", () => {
    for (const name of ["authors", "book_items", "books_by_author"]) {
      expect(listParamNames(doc, name)).toEqual(expect.arrayContaining(["_select", "_after", "_limit", "_offset"]));
      expect(doc.paths[`/${name}`].get.responses["200"].headers.Link.description).toContain('rel="next"');
      const aggregate = doc.paths[`/${name}/_aggregate`].get;
      expect(Object.keys(doc.paths[`/${name}/_aggregate`])).toEqual(["get"]);
      expect(aggregate.parameters.map((p: Doc) => p.name ?? p.$ref)).toEqual(expect.arrayContaining(["_group", "_agg", "_sort"]));
      expect(aggregate.responses["422"]).toBeDefined();
    }
    const expand = doc.paths["/book_items"].get.parameters.find((p: Doc) => p.name === "_expand");
    expect(expand.schema.items.enum).toEqual(["author_id"]);
    expect(doc.paths["/authors"].get.parameters.find((p: Doc) => p.name === "_expand"), "no reference columns, no _expand").toBeUndefined();
    expect(doc.components.schemas["BooksByAuthor.JoinRecord"].properties.author.type, "a left-joined column is nullable").toContain("null");
  });

  it("is OpenAPI 3.1 with the database's name, v1 and its server", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Shop", version: "v1" });
    expect(doc.servers).toEqual([{ url: DATA_URL, description: expect.any(String) }]);
  });

  it("gives every table both paths and all six operations, PATCH included", () => {
    for (const table of schema.tables.keys()) {
      expect(Object.keys(doc.paths[`/${table}`]).filter((k) => k !== "parameters").sort()).toEqual(["delete", "get", "patch", "post"]);
      expect(Object.keys(doc.paths[`/${table}/{id}`]).filter((k) => k !== "parameters").sort()).toEqual(["delete", "get", "patch", "put"]);
    }
    expect(doc.paths["/book_items"].get.operationId).toBe("listBookItems");
    expect(doc.paths["/book_items/{id}"].patch.operationId).toBe("updateBookItems");
    expect(doc.paths["/book_items/{id}"].delete.responses["204"]).toBeDefined();
    expect(doc.paths["/book_items"].post.responses["201"]).toBeDefined();
    expect(doc.paths["/openapi.json"].get).toBeDefined();
  });

  it("documents upsert on POST and PATCH / DELETE by filter on the collection", () => {
    const collection = doc.paths["/authors"];
    const onConflict = collection.post.parameters.find((p: Doc) => p.name === "_on_conflict");
    expect(onConflict.schema.enum).toEqual(["id", "name"]);
    expect(collection.post.parameters.find((p: Doc) => p.in === "header").schema.enum).toEqual(["resolution=merge-duplicates"]);
    expect(Object.keys(collection.post.responses)).toEqual(expect.arrayContaining(["200", "201", "422"]));
    for (const verb of ["patch", "delete"]) {
      const names = collection[verb].parameters.map((p: Doc) => p.name);
      expect(names).toEqual(expect.arrayContaining(["Prefer", "name", "name_ilike", "id_in"]));
      expect(names).not.toContain("_limit");
      expect(collection[verb].responses["200"].content["application/json"].schema.oneOf[0].required).toEqual(["affected"]);
      expect(collection[verb].responses["422"]).toBeDefined();
    }
    expect(collection.patch.operationId).toBe("updateAuthorsByFilter");
  });

  it("documents file columns: the File object, JSON inputs, multipart bodies and the download path", () => {
    expect(doc.components.schemas.File.required).toEqual(["name", "size", "type", "url"]);
    const record = doc.components.schemas["BookItems"].properties;
    expect(record.cover).toMatchObject({ $ref: "#/components/schemas/File" });
    expect(record.scans.type).toEqual(["array", "null"]);
    const form = doc.paths["/book_items"].post.requestBody.content["multipart/form-data"].schema.properties;
    expect(form.cover).toMatchObject({ type: "string", format: "binary" });
    expect(form.scans).toMatchObject({ type: "array", items: { format: "binary" } });
    expect(form._json).toMatchObject({ type: "string" });
    expect(doc.paths["/book_items/{id}"].patch.requestBody.content["multipart/form-data"]).toBeDefined();
    expect(doc.paths["/authors"].post.requestBody.content["multipart/form-data"]).toBeUndefined();
    const download = doc.paths["/book_items/{id}/{column}/{name}"];
    expect(download.parameters[1].schema.enum).toEqual(["cover", "scans"]);
    expect(Object.keys(download.get.responses)).toEqual(expect.arrayContaining(["200", "206", "404", "422"]));
    expect(doc.paths["/book_items"].post.responses["402"]).toBeDefined();
  });

  it("has unique operationIds, one tag per table", () => {
    const ids = operations(doc).map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.tags.map((t: Doc) => t.name)).toEqual(expect.arrayContaining(["authors", "book_items"]));
  });

  it("lists exactly the filters each column's type allows; password columns have none", () => {
    for (const table of schema.tables.values()) {
      const names = new Set(listParamNames(doc, table.name));
      for (const column of recordColumns(table)) {
        for (const [op, suffix] of Object.entries(SUFFIX) as [FilterOp, string][]) {
          const allowed = TYPE_SPECS[column.type].ops.includes(op);
          expect(names.has(`${column.name}${suffix}`), `${table.name}: ${column.name}${suffix}`).toBe(allowed);
        }
      }
    }
    const books = listParamNames(doc, "book_items");
    expect(books).toEqual(expect.arrayContaining(["_limit", "_offset", "_sort", "Prefer", "price_lt", "title_ilike", "created_at_gte", "id_in", "meta_null"]));
    expect(books.filter((n) => n.startsWith("secret"))).toEqual([]);
    expect(listParamNames(doc, "authors").filter((n) => n.startsWith("password"))).toEqual([]);
  });

  it("lists a parameter two filters could share once, as the server reads it (the column wins)", () => {
    const shadow = buildOpenApi(
      loaded({ ...schema, tables: new Map([["t", { id: 9, name: "t", columns: [col("price", "decimal"), col("price_lt", "varchar")] }]]) }),
      { serverUrl: DATA_URL },
    ) as Doc;
    const params = (shadow.paths["/t"].get.parameters as Doc[]).filter((p) => p.name === "price_lt");
    expect(params).toHaveLength(1);
    expect(params[0].description).toMatch(/^`price_lt` equals/);
    expect(listParamNames(shadow, "t")).toContain("price_gt");
  });

  it("_limit is 1..1000 with default 50, and _sort accepts only sortable columns", () => {
    expect(doc.components.parameters.Limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 1000, default: 50 });
    const sort = (doc.paths["/book_items"].get.parameters as Doc[]).find((p) => p.name === "_sort")!;
    const pattern = new RegExp(sort.schema.pattern);
    expect(pattern.test("-price,title")).toBe(true);
    expect(pattern.test("created_at")).toBe(true);
    expect(pattern.test("secret")).toBe(false);
    expect(pattern.test("meta")).toBe(false);
  });

  it("documents X-Total-Count on the list and WWW-Authenticate on 401", () => {
    expect(doc.paths["/authors"].get.responses["200"].headers["X-Total-Count"]).toBeDefined();
    expect(doc.paths["/authors"].get.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
    expect(doc.components.responses.Unauthorized.headers["WWW-Authenticate"]).toBeDefined();
    expect(doc.components.schemas.Error.required).toEqual(["error", "message"]);
    // Auth is on (403), isbn is unique (409), the file columns' uploads meet the storage quota (402); no data-API rate limit exists, so no 429.
    expect(Object.keys(doc.paths["/book_items"].post.responses).sort()).toEqual(["200", "201", "401", "402", "403", "404", "409", "413", "422", "500", "503"]);
    // Every operation may meet a database outage: 503 with Retry-After.
    expect(doc.paths["/authors"].get.responses["503"]).toEqual({ $ref: "#/components/responses/Unavailable" });
    expect(doc.components.responses.Unavailable.headers["Retry-After"]).toBeDefined();
  });

  it("offers bearer and x-api-key security on every operation", () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.bearerAuth.description).toMatch(/sk_\.\.\..*database-auth JWT/);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
  });

  it("gives every operation a cURL sample with the full URL and Authorization: Bearer", () => {
    for (const { path: p, method, op } of operations(doc)) {
      const [sample] = op["x-codeSamples"];
      expect(sample).toMatchObject({ lang: "curl", label: "cURL" });
      // The URL is the path's, with a sample query where the operation needs one (a filter for writes by filter).
      const url = `${DATA_URL}${p.replace("{id}", "1").replace("{provider}", "github")}`.replace(/[.?*+^$()[\]{}|\\]/g, "\\$&");
      expect(sample.source).toMatch(new RegExp(`curl -X ${method.toUpperCase()} '${url}(\\?[^']+)?'`));
      // Auth operations say their own security: login/signup need none, /auth/me takes the user's JWT.
      if (op.security) expect(sample.source).not.toContain("<API_KEY>");
      else expect(sample.source).toContain('-H "Authorization: Bearer <API_KEY>"');
      expect(sample.source.includes('-H "Content-Type: application/json"')).toBe(Boolean(op.requestBody));
    }
    const withKey = buildOpenApi(loaded(schema), { serverUrl: DATA_URL, apiKey: "sk_abc-123" }) as Doc;
    expect(withKey.paths["/authors"].get["x-codeSamples"][0].source).toContain('-H "Authorization: Bearer sk_abc-123"');
  });

  it(
    "quotes the cURL body for the shell, single quotes included",
    async () => {
      const source: string = doc.paths["/book_items"].post["x-codeSamples"][0].source;
      const dArg = source.slice(source.indexOf("-d ") + 3);
      const echoed = await run("/bin/sh", ["-c", `printf '%s' ${dArg}`]);
      expect(JSON.parse(echoed.stdout)).toEqual(doc.paths["/book_items"].post.requestBody.content["application/json"].example);
      expect(echoed.stdout).toContain("it's live");
    },
    JOB_WAIT,
  );

  it("requires exactly the NOT NULL columns without a default on create; all NOT NULL ones on replace", () => {
    const s = doc.components.schemas;
    expect(s["BookItems.Create"].required).toEqual(["title", "price", "meta", "author_id"]);
    expect(s["Authors.Create"].required).toEqual(["name", "password"]);
    expect(s["BookItems.Replace"].required).toEqual(["title", "price", "in_stock", "meta", "status", "author_id"]);
    expect(s["BookItems.Patch"].required).toBeUndefined();
    for (const name of ["BookItems.Create", "BookItems.Replace", "BookItems.Patch"]) expect(s[name].additionalProperties).toBe(false);
    expect(Object.keys(s["BookItems.Create"].properties)).not.toContain("id");
    expect(s["BookItems.Create"].properties.in_stock.default).toBe(true);
  });

  it("records carry every column, nullable ones as 3.1 type arrays, passwords as the hash", () => {
    const record = doc.components.schemas.BookItems;
    expect(record.required).toEqual(recordColumns(schema.tables.get("book_items")!).map((c) => c.name));
    expect(record.properties.pages.type).toEqual(["integer", "null"]);
    expect(record.properties.title.type).toBe("string");
    expect(record.properties.meta).not.toHaveProperty("type");
    expect(record.properties.author_id.description).toContain("authors");
    expect(doc.components.schemas.Authors.example.password).toMatch(/^\$2b\$10\$.{53}$/);
    expect(doc.components.schemas["Authors.Create"].properties.password).toMatchObject({ type: "string", writeOnly: true });
    const nullableDropdown = buildOpenApi(
      loaded({ ...schema, tables: new Map([["t", { id: 9, name: "t", columns: [col("s", "dropdown", { options: ["a"] })] }]]) }),
      { serverUrl: DATA_URL },
    ) as Doc;
    expect(nullableDropdown.components.schemas.T.properties.s).toMatchObject({ type: ["string", "null"], enum: ["a", null] });
  });

  it("shows a column added to the schema in a freshly built document", () => {
    const changed = makeSchema();
    changed.tables.get("authors")!.columns.push(col("nickname", "varchar", { nullable: false }));
    const fresh = buildOpenApi(loaded(changed), { serverUrl: DATA_URL }) as Doc;
    expect(doc.components.schemas.Authors.properties).not.toHaveProperty("nickname");
    expect(fresh.components.schemas.Authors.properties).toHaveProperty("nickname");
    expect(fresh.components.schemas["Authors.Create"].required).toContain("nickname");
    expect(fresh.components.schemas["Authors.Patch"].properties).toHaveProperty("nickname");
    expect(listParamNames(fresh, "authors")).toContain("nickname_ilike");
  });
});

describe("the management document", () => {
  const doc = buildManagementOpenApi(MANAGEMENT_URL) as Doc;
  const verbs = (p: string) => METHODS.filter((m) => doc.paths[p]?.[m]).sort();

  it("lists the databases, tables, columns and keys endpoints", () => {
    expect(verbs("/databases")).toEqual(["get", "post"]);
    expect(verbs("/databases/{instance}")).toEqual(["delete", "get", "patch"]);
    expect(verbs("/databases/{instance}/tables")).toEqual(["get", "post"]);
    expect(verbs("/databases/{instance}/tables/{table}")).toEqual(["delete", "get", "patch"]);
    expect(verbs("/databases/{instance}/tables/{table}/columns")).toEqual(["post"]);
    expect(verbs("/databases/{instance}/tables/{table}/columns/{column}")).toEqual(["delete", "patch"]);
    expect(verbs("/keys")).toEqual(["get", "post"]);
    expect(verbs("/keys/{id}/regenerate")).toEqual(["post"]);
    expect(verbs("/keys/{id}")).toEqual(["delete"]);
    expect(verbs("/openapi.json")).toEqual(["get"]);
  });

  it("lists the joins endpoints, with both input forms", () => {
    expect(verbs("/databases/{instance}/joins")).toEqual(["get", "post"]);
    expect(verbs("/databases/{instance}/joins/preview")).toEqual(["post"]);
    expect(verbs("/databases/{instance}/joins/{join}")).toEqual(["delete", "get", "patch"]);
    expect(doc.components.schemas.JoinInput.oneOf).toHaveLength(2);
  });

  it("answers create with 201, list with an array, delete with 204", () => {
    expect(doc.paths["/databases"].post.responses["201"]).toBeDefined();
    expect(doc.paths["/databases"].get.responses["200"].content["application/json"].schema.type).toBe("array");
    expect(doc.paths["/keys/{id}"].delete.responses["204"]).toBeDefined();
    expect(doc.paths["/keys/{id}/regenerate"].post.responses["200"]).toBeDefined();
    expect(doc.paths["/databases/{instance}/tables/{table}/columns"].post.responses["201"]).toBeDefined();
    for (const { op, path: p } of operations(doc)) {
      const unauthorized = p === "/billing/webhook" ? "BadSignature" : "Unauthorized";
      if (p !== "/openapi.json") expect(op.responses["401"], p).toEqual({ $ref: `#/components/responses/${unauthorized}` });
    }
  });

  it("describes columns with the 14 types and keys with their secret", () => {
    const s = doc.components.schemas;
    expect(s.ColumnInput.properties.type.enum).toEqual([...COLUMN_TYPES]);
    expect(Object.keys(s.ColumnInput.properties)).toEqual(["name", "type", "nullable", "unique", "default", "length", "precision", "scale", "options", "references", "multiple", "max_size", "accept", "thumbs", "public", "index", "searchable"]);
    expect(s.Column.properties).toHaveProperty("mysql_type");
    expect(s.Key.required).toEqual(["id", "name", "key", "database", "created_at"]);
    expect(Object.keys(s.Database.properties)).toEqual(["instance", "name", "owner_id", "owner", "creator", "role", "api_base", "tables", "created_at", "updated_at"]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("is generated from the route table: one operation per route, same operationId, tag and summary", () => {
    const ops = operations(doc).filter((o) => o.path !== "/openapi.json");
    expect(ops).toHaveLength(ROUTES.length);
    for (const route of ROUTES) {
      const op = doc.paths[`/${route.path.replace(/:(\w+)/g, "{$1}")}`][route.method.toLowerCase()];
      expect(op, route.operationId).toMatchObject({ operationId: route.operationId, tags: [route.tag], summary: route.summary });
      expect(op.description).toContain(`Permission \`${route.permission}\``);
      expect(Object.keys(op.responses)).toContain(String(route.status));
    }
  });

  it("documents only the errors a route can answer", () => {
    for (const route of ROUTES) {
      const op = doc.paths[`/${route.path.replace(/:(\w+)/g, "{$1}")}`][route.method.toLowerCase()];
      const statuses = Object.keys(op.responses).filter((s) => s !== String(route.status));
      const expected = [
        "401",
        ...(route.quota || route.errors?.includes("quota") ? ["402"] : []),
        ...(canRefuse(route.permission) ? ["403"] : []),
        // A workspace route names a workspace (yours by default): one you cannot reach is 404.
        ...(route.path.includes(":") || route.errors?.includes("not_found") || isWorkspacePermission(route.permission) ? ["404"] : []),
        // A write can lose a race on the metadata past the retries: 409 write_conflict (and `conflict` where declared).
        ...(route.errors?.includes("conflict") || route.method !== "GET" ? ["409"] : []),
        ...(route.errors?.includes("gone") ? ["410"] : []),
        ...(route.errors?.includes("ai") ? ["502"] : []),
        ...(route.body ? ["413"] : []),
        ...(route.body || route.query ? ["422"] : []),
        "503", // every route reads the metadata store: unreachable, it answers 503 unavailable
      ];
      expect(statuses.sort(), route.operationId).toEqual(expected.sort());
    }
    expect(doc.paths["/account"].get.responses["403"]).toBeUndefined();
    expect(doc.paths["/databases"].post.responses["402"]).toEqual({ $ref: "#/components/responses/QuotaExceeded" });
    expect(doc.components.responses.QuotaExceeded.content["application/json"].example.quota).toEqual({ kind: "databases", limit: 2, used: 2, credits: 0 });
    expect(doc.paths["/databases/{instance}/tables"].post.responses["402"]).toBeUndefined();
    expect(doc.paths["/keys"].get.responses["404"]).toBeUndefined();
    expect(doc.paths["/databases/{instance}/tables/{table}"].delete.responses["409"]).toBeDefined();
  });

  it("documents the AI builder's own errors: 402 before the model, 502 when it is down, 409 for a build that is not planned", () => {
    expect(verbs("/ai/builds")).toEqual(["get", "post"]);
    expect(verbs("/ai/builds/{build}")).toEqual(["get"]);
    expect(verbs("/ai/builds/{build}/apply")).toEqual(["post"]);
    const create = doc.paths["/ai/builds"].post.responses;
    expect(Object.keys(create).sort()).toEqual(["201", "401", "402", "403", "404", "409", "413", "422", "502", "503"]);
    expect(create["402"]).toEqual({ $ref: "#/components/responses/QuotaExceeded" });
    expect(create["502"]).toEqual({ $ref: "#/components/responses/AiUnavailable" });
    expect(doc.components.responses.AiUnavailable.content["application/json"].example.error).toBe("ai_unavailable");
    const apply = doc.paths["/ai/builds/{build}/apply"].post.responses;
    expect(Object.keys(apply).sort()).toEqual(["200", "401", "402", "403", "404", "409", "422", "503"]);
    expect(apply["502"]).toBeUndefined();
    expect(Object.keys(doc.paths["/ai/builds"].get.responses).sort()).toEqual(["200", "401", "403", "422", "503"]);
    expect(Object.keys(doc.paths["/ai/builds/{build}"].get.responses).sort()).toEqual(["200", "401", "403", "404", "503"]);
  });

  it("has every $ref resolve and every component used", () => {
    const text = JSON.stringify(doc);
    const refs = new Set([...text.matchAll(/"\$ref":"#\/components\/(\w+)\/([\w.]+)"/g)].map((m) => `${m[1]}/${m[2]}`));
    for (const ref of refs) expect(doc.components[ref.split("/")[0]]?.[ref.split("/")[1]], ref).toBeDefined();
    for (const kind of ["responses", "parameters"]) {
      for (const name of Object.keys(doc.components[kind])) expect(refs, `${kind}/${name}`).toContain(`${kind}/${name}`);
    }
  });

  it("gives every operation with a body an example and a cURL sample sending it", () => {
    for (const { path: p, method, op } of operations(doc).filter((o) => o.path !== "/openapi.json")) {
      expect(op["x-codeSamples"][0].source).toContain(`curl -X ${method.toUpperCase()} '${MANAGEMENT_URL}${p.split("{")[0]}`);
      const body = op.requestBody?.content["application/json"];
      if (body) {
        expect(body.example, op.operationId).toBeDefined();
        expect(op["x-codeSamples"][0].source).toContain(JSON.stringify(body.example).slice(0, 20));
      }
    }
  });
});
