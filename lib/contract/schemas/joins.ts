import { z } from "zod";
import { MAX_JOIN_COLUMNS, MAX_JOINED_TABLES } from "../../joins/parse-join-definition";
import { MAX_JOIN_SQL } from "../../joins/parse-join-sql";
import { checkColumnName, checkTableName, NAME_RE } from "../../schema/names";
import { component, DataRecord, INSTANCE_EXAMPLE, rule, TableRef } from "./common";

// Structure only: that tables and columns exist, are in scope and compare as keys is the service's check.
const JoinName = z
  .string()
  .check(
    rule((v: string) => {
      const problem = checkTableName(v);
      return problem && { ...problem, message: problem.message.replace(/^table/, "join") };
    }),
  )
  .meta({ pattern: NAME_RE.source, description: "Shares one namespace with the tables: `GET /v1/{instance}/{name}`." });
// Output names follow the column-name rules, but `id` and the timestamps are fair names in a join.
const OutputName = z
  .string()
  .check(
    rule((v: string) => {
      const problem = checkColumnName(v);
      return problem && problem.code !== "reserved_name" ? { ...problem, message: `output ${problem.message}` } : undefined;
    }),
  )
  .meta({ pattern: NAME_RE.source });
const ColumnRef = z.string().meta({ description: "`table.column`", example: "books.title" });

const structure = {
  base: TableRef.meta({ description: "The base table; rows come in its id order unless `_sort` says otherwise." }),
  joins: z
    .array(
      z.strictObject({
        table: TableRef,
        on: z.array(z.tuple([ColumnRef, ColumnRef])).min(1),
        type: z.enum(["inner", "left"]).optional().meta({ default: "inner", description: "`left` keeps rows without a match here, their columns null." }),
      }),
    )
    .min(1)
    .max(MAX_JOINED_TABLES)
    .meta({ description: "Joined tables in order (inner unless `type: left`); each key pair links the table to one before it." }),
  columns: z
    .array(z.strictObject({ column: ColumnRef, as: OutputName.optional() }))
    .min(1)
    .max(MAX_JOIN_COLUMNS)
    .meta({ description: "Output columns; `as` defaults to the column's name and must be unique." }),
};
const Sql = z.string().max(MAX_JOIN_SQL).meta({ description: "One `SELECT t.col [AS name] … FROM a [INNER|LEFT] JOIN b ON a.x = b.y …` (MySQL dialect)." });

const STRUCTURE = {
  base: "books",
  joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }],
  columns: [{ column: "books.title", as: "title" }, { column: "authors.name", as: "author" }],
};
const SQL = "SELECT b.title, a.name AS author FROM books b JOIN authors a ON b.author_id = a.id";

/** The structured form; a definition written in SQL is checked against it too, once parsed. */
export const JoinStructure = z.strictObject({ name: JoinName, ...structure });

export const JoinInput = component(
  "JoinInput",
  z
    .xor([JoinStructure, z.strictObject({ name: JoinName, sql: Sql })])
    .meta({ description: "Either the structured form or `sql`; both store the same definition.", example: { name: "books_with_authors", sql: SQL } }),
);

const optionalStructure = { base: structure.base.optional(), joins: structure.joins.optional(), columns: structure.columns.optional() };

export const JoinPatch = component(
  "JoinPatch",
  z
    .strictObject({ name: JoinName.optional(), sql: Sql.optional(), ...optionalStructure })
    .meta({ description: "`name` renames; `sql` replaces the definition; any of base/joins/columns replace those parts.", example: { name: "catalog" } }),
);

export const JoinPreviewInput = component(
  "JoinPreviewInput",
  z
    .strictObject({ name: JoinName.optional(), sql: Sql.optional(), ...optionalStructure })
    .meta({ description: "A definition to check and preview, in either form; `name` is optional.", example: { sql: SQL } }),
);

const definition = {
  base: z.string(),
  joins: z.array(
    z.object({
      table: z.string(),
      on: z.array(z.tuple([z.string(), z.string()])),
      type: z.literal("left").optional().meta({ description: "Present for a left join; absent = inner." }),
    }),
  ),
  columns: z.array(z.object({ column: z.string(), as: z.string() })),
};

export const Join = component(
  "Join",
  z
    .object({
      name: z.string(),
      ...definition,
      sql: z.string().optional().meta({ description: "The SQL it was made from, when made in SQL mode." }),
      path: z.string().meta({ description: "Its read-only data API path." }),
    })
    .meta({ example: { name: "books_with_authors", ...STRUCTURE, sql: SQL, path: `/v1/${INSTANCE_EXAMPLE}/books_with_authors` } }),
);

export const JoinPreview = component(
  "JoinPreview",
  z
    .object({ ...definition, rows: z.array(DataRecord).max(5) })
    .meta({ example: { ...STRUCTURE, rows: [{ title: "Kindred", author: "Octavia Butler" }] } }),
);

export type JoinDefinition = z.output<z.ZodObject<typeof definition>>;
export type JoinInput = z.input<typeof JoinInput>;
export type JoinPreviewInput = z.input<typeof JoinPreviewInput>;
export type Join = z.output<typeof Join>;
export type JoinPreview = z.output<typeof JoinPreview>;
