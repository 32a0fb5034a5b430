// The typed-client check: a client generated from a live data OpenAPI document with openapi-typescript must
// type-check a small app (tests/clients/typed-app/main.ts: create, bulk create, list with filters and
// `_expand`, aggregate, upsert, update, delete, errors, an upload and its download) under `tsc --strict`
// without casts, must refuse the
// mistakes in wrong.ts, and the app must then run against the server and get what it typed. Both engines.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(import.meta.dirname, "typed-app");
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

const TABLES = [
  { name: "authors", columns: [{ name: "name", type: "varchar", nullable: false }] },
  {
    name: "books",
    columns: [
      { name: "title", type: "varchar", length: 200, nullable: false },
      { name: "isbn", type: "varchar", unique: true, nullable: false },
      { name: "genre", type: "dropdown", options: ["fiction", "history"], nullable: false },
      { name: "pages", type: "int" },
      { name: "author_id", type: "reference", references: "authors" },
    ],
  },
  { name: "scans", columns: [{ name: "label", type: "varchar", nullable: false }, { name: "image", type: "file" }] },
];

/** File parts (`format: binary`) as Blob, the documented openapi-typescript transform for uploads. */
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob"));
const transform = (schema: { format?: string }) => (schema.format === "binary" ? BLOB : undefined);

/** A folder under tests/.tmp (so `openapi-fetch` resolves from the project) with the app, the generated types and a strict tsconfig. */
const clientFolder = async (doc: unknown) => {
  const dir = path.join(ROOT, "tests", ".tmp", `typed-client-${randomBytes(4).toString("hex")}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const file of fs.readdirSync(APP)) fs.copyFileSync(path.join(APP, file), path.join(dir, file));
  fs.writeFileSync(path.join(dir, "schema.d.ts"), astToString(await openapiTS(doc as Parameters<typeof openapiTS>[0], { transform })));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "nodenext", moduleResolution: "nodenext", strict: true, noEmit: true, skipLibCheck: true, types: ["node"], noUncheckedIndexedAccess: false },
      include: ["*.ts"],
    }),
  );
  return dir;
};

describe.each(ENGINES)("a generated typed client on %s", (engine) => {
  let h: Harness;
  let db = "";
  let dir = "";

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    db = await createDatabase(h, "typed", TABLES);
    const doc = await h.request("GET", `/v1/${db}/openapi.json`);
    expect(doc.status, doc.text).toBe(200);
    dir = await clientFolder(doc.body);
  });

  afterAll(async () => {
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("type-checks the app under tsc --strict without casts, and refuses every mistake in wrong.ts", async () => {
    const checked = await run(bin("tsc"), ["-p", path.join(dir, "tsconfig.json")], { cwd: dir }).then(
      () => "",
      (err: { stdout: string }) => err.stdout,
    );
    expect(checked).toBe("");
    for (const file of ["main.ts", "wrong.ts"]) expect(fs.readFileSync(path.join(dir, file), "utf8")).not.toMatch(/\bas\s+(any|unknown)\b|<any>/);
  }, 120_000);

  it("runs the app against the server and gets what it typed", async () => {
    const { stdout } = await run(bin("tsx"), ["main.ts"], { cwd: dir, env: { ...process.env, TABULA_URL: `${h.baseUrl}/v1/${db}`, TABULA_KEY: h.accountKey } });
    const out = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(out.authorId).toEqual(expect.any(Number));
    expect(out.bookIds).toHaveLength(3);
    expect(out.shelf).toEqual(["Earthsea by Ursula", "The Dispossessed by Ursula"]);
    expect(out.counts).toEqual({ fiction: 2, history: 1 });
    expect(out.outcomes).toEqual(["200:SPQR, second edition", "201:Lavinia"]);
    expect(out.pages).toBe(250);
    expect(out.removed).toBe(204);
    expect(out.missing).toEqual([404, "not_found"]);
    expect(out.tooLong).toEqual([422, "title"]);
    expect(out.file).toEqual([25, "a scanned page, as bytes\n"]);
    const left = await h.request("GET", `/v1/${db}/books?_sort=id`);
    expect(left.body.map((b: { title: string }) => b.title)).toEqual(["Earthsea", "SPQR, second edition", "Lavinia"]);
  }, 60_000);
});
