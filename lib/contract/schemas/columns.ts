import { z } from "zod";
import { COLUMN_TYPES, type ColumnType } from "../../schema/types";
import { columnProblems } from "./column-rules";
import { ColumnName, component, problemsOf, rule, TableRef } from "./common";

// Which options fit which type and defaults valid for the type are refinements (./column-rules.ts); whether a
// referenced table exists is the service's check.
const ColumnTypeName = z
  .string()
  .check(rule((v: string) => (COLUMN_TYPES.includes(v as ColumnType) ? undefined : { code: "invalid_type", message: `type must be one of ${COLUMN_TYPES.join(", ")}` })))
  .meta({ enum: [...COLUMN_TYPES] }) as unknown as z.ZodType<ColumnType, ColumnType>;

const columnProperties = {
  name: ColumnName,
  type: ColumnTypeName,
  nullable: z.boolean().optional().meta({ default: true }),
  unique: z.boolean().optional().meta({ default: false }),
  default: z.unknown().optional().meta({ description: "Value used when an insert omits the column; any JSON value valid for the type, or `auth.id`." }),
  length: z.int().min(1).max(16383).optional().meta({ description: "varchar only; default 255." }),
  precision: z.int().min(1).max(65).optional().meta({ description: "decimal only; default 10." }),
  scale: z.int().min(0).max(30).optional().meta({ description: "decimal only; default 2." }),
  options: z.array(z.string().min(1).max(255)).min(1).max(255).optional().meta({ description: "dropdown only: the allowed values." }),
  references: TableRef.optional().meta({ description: "reference only: the table whose `id` this column holds." }),
  multiple: z.boolean().optional().meta({ description: "file only: up to 99 files per row; the value is an array.", default: false }),
  max_size: z.int().min(1).max(1_099_511_627_776).optional().meta({ description: "file only: most bytes of one file (the install's FILE_MAX_BYTES caps it)." }),
  accept: z.array(z.string().min(1).max(255)).min(1).max(100).optional().meta({ description: "file only: MIME types or patterns (`image/*`) the file's sniffed type must match; any when absent.", example: ["image/*", "application/pdf"] }),
  thumbs: z.array(z.string().max(20)).min(1).max(20).optional().meta({ description: "file only: thumbnail sizes for `?thumb=`: `WxH` crops to fill, `Wx0`/`0xH` keep the ratio, `WxHf` fits inside.", example: ["100x100", "400x0"] }),
  public: z.boolean().optional().meta({ description: "file only: downloads need no key or token.", default: false }),
  index: z.boolean().optional().meta({ description: "An index on the column (not for text, json, password). Always true for a reference; a unique column is indexed by its constraint.", default: false }),
  searchable: z.boolean().optional().meta({
    description: "varchar and text only: a trigram index that `_like` and `_ilike` use for values of 3 characters or more (same answers as the scan). SQLite builds it; MariaDB stores the option and scans.",
    default: false,
  }),
};

const COLUMN_EXAMPLE = { name: "price", type: "decimal", precision: 10, scale: 2, nullable: false };

export const ColumnInput = component(
  "ColumnInput",
  z.strictObject(columnProperties).superRefine(problemsOf(columnProblems)).meta({ description: "A column definition.", example: COLUMN_EXAMPLE }),
);

export const ColumnsInput = component(
  "ColumnsInput",
  z
    .strictObject({ columns: z.array(ColumnInput).min(1).max(100).meta({ description: "Added in this order, after the table's columns." }) })
    .superRefine(
      problemsOf((body: { columns: { name: string }[] }) =>
        body.columns.flatMap((c, i) => (body.columns.findIndex((x) => x.name === c.name) === i ? [] : [{ path: ["columns", i, "name"], code: "duplicate", message: `column "${c.name}" is defined twice` }])),
      ),
    )
    .meta({ description: "Several columns added in one change: all or none.", example: { columns: [COLUMN_EXAMPLE, { name: "in_stock", type: "boolean", default: true }] } }),
);

export const ColumnPatch = component(
  "ColumnPatch",
  z
    .strictObject({
      ...columnProperties,
      name: ColumnName.optional(),
      type: columnProperties.type.optional(),
      rename: z
        .record(z.string(), z.string().min(1).max(255).nullable())
        .optional()
        .meta({
          description:
            'dropdown only: `{"old option": "new option"}`; rows holding the old option get the new one (an option of the new list; the list may be left out: each renamed option is replaced in place). `null` instead of an option makes those rows NULL (nullable columns). Without it, removing an option that rows hold is a 422 naming the option and its row count.',
          example: { archived: "discontinued" },
        }),
      misfits: z.enum(["null"]).optional().meta({
        description:
          'A lossy change (values that do not fit the new type, length or precision) is refused with a 422 counting the rows (`misfit_rows`). `"null"` converts anyway: those rows become NULL (nullable columns only), every other row is converted as usual.',
      }),
      fill: z.unknown().optional().meta({
        description: "Value written into the rows where the column is empty (NULL), in the same change: how a column with empty rows becomes required (`nullable: false`). Valid for the new type; not stored.",
      }),
    })
    .meta({
      description: "Only the properties to change (name, type, options...); `default: null` removes the default; `fill` gives empty rows a value. A lossy change is a 422.",
      example: { name: "unit_price" },
    }),
);

export const Column = component(
  "Column",
  z
    .object({
      name: z.string(),
      type: z.enum(COLUMN_TYPES),
      nullable: z.boolean(),
      unique: z.boolean(),
      default: columnProperties.default,
      length: z.int().optional(),
      precision: z.int().optional(),
      scale: z.int().optional(),
      options: z.array(z.string()).optional(),
      references: z.string().optional(),
      multiple: z.boolean().optional(),
      max_size: z.int().optional(),
      accept: z.array(z.string()).optional(),
      thumbs: z.array(z.string()).optional(),
      public: z.boolean().optional(),
      index: z.boolean(),
      searchable: z.boolean(),
      mysql_type: z.string().meta({ example: "DECIMAL(10,2)" }),
    })
    .meta({ description: "A column as stored, with the MySQL type it maps to.", example: { ...COLUMN_EXAMPLE, unique: false, index: false, searchable: false, mysql_type: "DECIMAL(10,2)" } }),
);

const INDEX_EXAMPLE = { name: "category_price", columns: ["category", "price"], unique: false };

export const IndexInput = component(
  "IndexInput",
  z
    .strictObject({
      columns: z.array(ColumnName.or(z.enum(["id", "created_at", "updated_at"]))).min(2).max(16).meta({ description: "Two to 16 columns of the table, in index order." }),
      unique: z.boolean().optional().meta({ default: false }),
      name: z.string().optional().meta({ description: "Unique per table; default: the column names joined by `_`." }),
    })
    .meta({ description: "An index over several columns.", example: { columns: ["category", "price"] } }),
);

export const Index = component(
  "Index",
  z.object({ name: z.string(), columns: z.array(z.string()), unique: z.boolean() }).meta({ example: INDEX_EXAMPLE }),
);

export type ColumnInput = z.input<typeof ColumnInput>;
export type ColumnPatch = z.input<typeof ColumnPatch>;
export type Column = z.output<typeof Column>;
export type Index = z.output<typeof Index>;
export type IndexInput = z.input<typeof IndexInput>;
