// Three tables for the join suites: books → authors, books → categories, with rows whose keys do not match.
import type { Harness } from "../helpers/harness";
import { createDatabase, insert, type TableInput } from "../contract/contract-helpers";

export const TABLES: TableInput[] = [
  { name: "authors", columns: [{ name: "name", type: "varchar", length: 60, nullable: false }, { name: "country", type: "varchar", length: 2 }] },
  { name: "categories", columns: [{ name: "label", type: "varchar", length: 40, nullable: false }, { name: "public", type: "boolean" }] },
  {
    name: "books",
    columns: [
      { name: "title", type: "varchar", length: 100, nullable: false },
      { name: "price", type: "decimal", precision: 8, scale: 2 },
      { name: "author_id", type: "reference", references: "authors" },
      { name: "category_id", type: "reference", references: "categories" },
    ],
  },
];

export const BOOKS_JOIN = {
  name: "catalog",
  base: "books",
  joins: [
    { table: "authors", on: [["books.author_id", "authors.id"]] },
    { table: "categories", on: [["books.category_id", "categories.id"]] },
  ],
  columns: [
    { column: "books.id", as: "id" },
    { column: "books.title", as: "title" },
    { column: "books.price", as: "price" },
    { column: "authors.name", as: "author" },
    { column: "authors.country", as: "country" },
    { column: "categories.label", as: "category" },
  ],
};

export const CATALOG_SQL = `SELECT b.id, b.title AS title, b.price AS price, a.name AS author, a.country AS country, c.label AS category
FROM books AS b
INNER JOIN authors a ON b.author_id = a.id
JOIN categories c ON c.id = b.category_id`;

/**
 * Authors 1 Ursula (US), 2 bell (GB), 3 Chinua (NG, no books); categories 1 Fiction, 2 poetry, 3 Essays (no books).
 * Books in id order; the last two have no author or no category, so the inner join drops them.
 */
export const seedCatalog = async (h: Harness, name: string) => {
  const instance = await createDatabase(h, name, TABLES);
  const base = `/v1/${instance}`;
  await insert(h, `${base}/authors`, [{ name: "Ursula", country: "US" }, { name: "bell", country: "GB" }, { name: "Chinua", country: "NG" }]);
  await insert(h, `${base}/categories`, [{ label: "Fiction", public: true }, { label: "poetry", public: false }, { label: "Essays", public: true }]);
  await insert(h, `${base}/books`, [
    { title: "The Dispossessed", price: 12.5, author_id: 1, category_id: 1 },
    { title: "all about love", price: 9.99, author_id: 2, category_id: 2 },
    { title: "Earthsea", price: 8, author_id: 1, category_id: 1 },
    { title: "Lathe of Heaven", price: 12.5, author_id: 1, category_id: 2 },
    { title: "Orphan", price: 5, author_id: null, category_id: 1 },
    { title: "Unfiled", price: 7, author_id: 2, category_id: null },
  ]);
  return { instance, base };
};

/** The four books the inner join keeps, as the join's records, in id order. */
export const CATALOG = [
  { id: 1, title: "The Dispossessed", price: 12.5, author: "Ursula", country: "US", category: "Fiction" },
  { id: 2, title: "all about love", price: 9.99, author: "bell", country: "GB", category: "poetry" },
  { id: 3, title: "Earthsea", price: 8, author: "Ursula", country: "US", category: "Fiction" },
  { id: 4, title: "Lathe of Heaven", price: 12.5, author: "Ursula", country: "US", category: "poetry" },
];
