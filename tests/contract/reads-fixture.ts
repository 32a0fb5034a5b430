// Tables for the second-edition read suites (_select, _expand, cursor pages, aggregates): books reference
// authors twice (author, editor) and a category; authors hold a password column that never appears in expansions.
import type { App } from "../../lib/app";
import type { Harness } from "../helpers/harness";
import { createDatabase, insert, type TableInput } from "./contract-helpers";

export const READ_TABLES: TableInput[] = [
  {
    name: "authors",
    columns: [
      { name: "name", type: "varchar", length: 60, nullable: false },
      { name: "country", type: "varchar", length: 2 },
      { name: "pin", type: "password" },
    ],
  },
  { name: "categories", columns: [{ name: "label", type: "varchar", length: 40, nullable: false }] },
  {
    name: "books",
    columns: [
      { name: "title", type: "varchar", length: 100, nullable: false },
      { name: "genre", type: "varchar", length: 20 },
      { name: "price", type: "decimal", precision: 8, scale: 2 },
      { name: "weight", type: "float" },
      { name: "pages", type: "int" },
      { name: "published", type: "date" },
      { name: "in_print", type: "boolean" },
      { name: "author_id", type: "reference", references: "authors" },
      { name: "editor_id", type: "reference", references: "authors" },
      { name: "category_id", type: "reference", references: "categories" },
    ],
  },
];

/** Books 1..8 in id order; book 7 has no author, book 8 no category; genres repeat with case and NULL variants. */
export const BOOKS = [
  { title: "Dune", genre: "scifi", price: 9.99, weight: 0.5, pages: 412, published: "1965-08-01", in_print: true, author_id: 1, editor_id: 2, category_id: 1 },
  { title: "Emma", genre: "classic", price: 5.1, weight: 0.25, pages: 474, published: "1815-12-23", in_print: true, author_id: 2, editor_id: null, category_id: 2 },
  { title: "Ubik", genre: "scifi", price: 7.2, weight: 0.2, pages: 202, published: "1969-05-01", in_print: false, author_id: 3, editor_id: 1, category_id: 1 },
  { title: "Beloved", genre: null, price: 12.3, weight: 0.4, pages: 324, published: "1987-09-02", in_print: true, author_id: 2, editor_id: 3, category_id: 2 },
  { title: "Solaris", genre: "SciFi", price: 0.1, weight: 0.3, pages: 204, published: null, in_print: null, author_id: 3, editor_id: 2, category_id: 1 },
  { title: "Kindred", genre: "classic", price: 0.2, weight: 0.35, pages: null, published: "1979-06-01", in_print: true, author_id: 1, editor_id: 1, category_id: 2 },
  { title: "Anonymous", genre: "scifi", price: null, weight: null, pages: 100, published: "2001-01-01", in_print: false, author_id: null, editor_id: null, category_id: 1 },
  { title: "Loose", genre: null, price: 3, weight: 1, pages: 50, published: "2002-02-02", in_print: false, author_id: 1, editor_id: null, category_id: null },
];

export const AUTHORS = [
  { name: "Frank", country: "US", pin: "pin-frank" },
  { name: "Jane", country: "GB", pin: "pin-jane" },
  { name: "Philip", country: null, pin: "pin-philip" },
];

/** The book join used by the join variants: books ⋈ authors (inner), with the reference columns kept. */
export const SHELF_JOIN = {
  name: "shelf",
  base: "books",
  joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }],
  columns: [
    { column: "books.id", as: "id" },
    { column: "books.title", as: "title" },
    { column: "books.genre", as: "genre" },
    { column: "books.price", as: "price" },
    { column: "books.editor_id", as: "editor_id" },
    { column: "books.category_id", as: "category_id" },
    { column: "authors.name", as: "author" },
  ],
};

export const seedReads = async (h: Harness, name: string) => {
  const instance = await createDatabase(h, name, READ_TABLES);
  const base = `/v1/${instance}`;
  await insert(h, `${base}/authors`, AUTHORS);
  await insert(h, `${base}/categories`, [{ label: "Fiction" }, { label: "Classics" }]);
  await insert(h, `${base}/books`, BOOKS);
  const made = await h.request("POST", `/api/v1/databases/${instance}/joins`, { body: SHELF_JOIN });
  if (made.status !== 201) throw new Error(`join: ${made.text}`);
  return { instance, base };
};

/** Counts the statements the data API runs on user databases while `run` runs (both engines, both adapters). */
export const countStatements = async (app: App, run: () => Promise<unknown>) => {
  const seen: string[] = [];
  const original = app.engine.userDb;
  app.engine.userDb = (physical) => {
    const udb = original(physical);
    const db = new Proxy(udb.db, {
      get: (target, key) => {
        const value = Reflect.get(target, key, target);
        if (key === "executeQuery") return (q: { sql: string }) => (seen.push(q.sql), value.call(target, q));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    return { ...udb, db, ...(udb.scan ? { scan: (q: { sql: string }) => (seen.push(q.sql), udb.scan!(q as never)) } : {}) };
  };
  try {
    await run();
  } finally {
    app.engine.userDb = original;
  }
  return seen;
};
