// A small app written against a client generated from a live OpenAPI document (openapi-typescript +
// openapi-fetch), as an app developer would write it: strict TypeScript, no casts, no `any`. The typed-client
// check type-checks it next to the generated `schema.d.ts`, then runs it against the server and reads what it
// prints.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const client = createClient<paths>({ baseUrl: process.env.TABULA_URL, headers: { "x-api-key": process.env.TABULA_KEY } });

const fail = (what: string, status: number): never => {
  throw new Error(`${what}: HTTP ${status}`);
};

// One create answers one record: its id is a number, no narrowing needed.
const author = await client.POST("/authors", { body: { name: "Ursula" } });
if (!author.data) fail("create author", author.response.status);
const authorId: number = author.data!.id;

// Several at once: the bulk path answers the array of records.
const books = await client.POST("/books/_bulk", {
  body: [
    { title: "Earthsea", isbn: "isbn-1", genre: "fiction", pages: 200, author_id: authorId },
    { title: "The Dispossessed", isbn: "isbn-2", genre: "fiction", pages: 400, author_id: authorId },
    { title: "SPQR", isbn: "isbn-3", genre: "history", pages: 600 },
  ],
});
if (!books.data) fail("bulk create", books.response.status);
const bookIds: number[] = books.data!.map((b) => b.id);

// A list with a filter, a sort and `_expand`: the referenced author is typed.
const fiction = await client.GET("/books", { params: { query: { genre: "fiction", _sort: "title", _expand: ["author_id"], _limit: 10 } } });
if (!fiction.data) fail("list", fiction.response.status);
const shelf: string[] = fiction.data!.map((b) => `${b.title} by ${b.expand?.author_id?.name ?? "nobody"}`);

// Aggregates: the group column keeps its dropdown type, `count` is a number.
const byGenre = await client.GET("/books/_aggregate", { params: { query: { _group: ["genre"], _agg: "count" } } });
if (!byGenre.data) fail("aggregate", byGenre.response.status);
const counts: Record<string, number> = Object.fromEntries(byGenre.data!.map((row) => [row.genre ?? "none", row.count ?? 0]));

// Upsert several: one outcome per record.
const upserted = await client.POST("/books/_upsert", {
  params: { query: { _on_conflict: "isbn" } },
  body: [
    { title: "SPQR, second edition", isbn: "isbn-3", genre: "history" },
    { title: "Lavinia", isbn: "isbn-4", genre: "fiction", author_id: authorId },
  ],
});
if (!upserted.data) fail("upsert", upserted.response.status);
const outcomes: string[] = upserted.data!.map((o) => `${o.status}:${o.record.title}`);

// Update and delete by id.
const updated = await client.PATCH("/books/{id}", { params: { path: { id: bookIds[0] } }, body: { pages: 250 } });
if (!updated.data) fail("update", updated.response.status);
const pages: number | null = updated.data!.pages;
const removed = await client.DELETE("/books/{id}", { params: { path: { id: bookIds[1] } } });

// Errors are typed too: the code of a 404 and the field of a 422.
const missing = await client.GET("/books/{id}", { params: { path: { id: 999_999 } } });
const tooLong = await client.POST("/books", { body: { title: "x".repeat(300), isbn: "isbn-9", genre: "fiction" } });

// Files: a multipart create (the generated types take a Blob for a file column), then the file downloaded.
const bytes = new TextEncoder().encode("a scanned page, as bytes\n");
const scan = await client.POST("/scans", {
  body: { label: "page one", image: new Blob([bytes]) },
  bodySerializer: (body) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(body)) if (value !== undefined && value !== null) form.append(key, value instanceof Blob ? value : String(value));
    return form;
  },
});
if (!scan.data) fail("upload", scan.response.status);
const stored = scan.data!.image;
const download = stored ? await client.GET("/scans/{id}/{column}/{name}", { params: { path: { id: scan.data!.id, column: "image", name: stored.name } }, parseAs: "arrayBuffer" }) : undefined;
const roundTrip = download?.data ? new TextDecoder().decode(download.data) : null;

console.log(
  JSON.stringify({
    file: [stored?.size ?? null, roundTrip],
    authorId,
    bookIds,
    shelf,
    counts,
    outcomes,
    pages,
    removed: removed.response.status,
    missing: [missing.response.status, missing.error?.error ?? null],
    tooLong: [tooLong.response.status, tooLong.error?.errors?.[0]?.field ?? null],
  }),
);
