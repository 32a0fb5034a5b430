import { z } from "zod";
import { Column, ColumnInput, Index, IndexInput } from "./columns";
import { component, INSTANCE_EXAMPLE, problemsOf, rule, TableName, Timestamp, WorkspaceField } from "./common";
import { tableListProblems, tableProblems, type TableFields } from "./table-rules";
import { Person } from "./team";

const HistoryFlag = z.boolean().meta({ description: "Keep record history (`/{table}/{id}/_history`, `_restore`) for `HISTORY_DAYS`; default true." });

const TABLE_INPUT_EXAMPLE = { name: "products", columns: [ColumnInput.meta()?.example] };

export const TableInput = component(
  "TableInput",
  z
    .strictObject({
      name: TableName,
      columns: z.array(ColumnInput).optional(),
      indexes: z.array(IndexInput).optional().meta({ description: "Indexes over several columns." }),
      history: HistoryFlag.optional(),
    })
    .superRefine(problemsOf(tableProblems))
    .meta({ example: TABLE_INPUT_EXAMPLE }),
);

export const TableUpdate = component(
  "TableUpdate",
  z
    .strictObject({ name: TableName.optional(), history: HistoryFlag.optional() })
    .check(rule((v: { name?: string; history?: boolean }) => (v.name === undefined && v.history === undefined ? { code: "required", message: "send name, history or both" } : undefined)))
    .meta({ example: { name: "items" } }),
);

const TABLE_EXAMPLE = { name: "products", columns: [Column.meta()?.example], indexes: [], history: true, automatic_columns: ["id", "created_at", "updated_at"] };

export const Table = component(
  "Table",
  z
    .object({
      name: z.string(),
      columns: z.array(Column),
      indexes: z.array(Index).meta({ description: "Indexes over several columns (a column's own index is its `index`)." }),
      history: z.boolean().meta({ description: "Whether the table keeps record history." }),
      automatic_columns: z.array(z.string()).meta({ description: "Always `id`, `created_at`, `updated_at`." }),
    })
    .meta({ example: TABLE_EXAMPLE }),
);

const MAX_DATABASE_NAME = 80;

export const DatabaseName = z
  .string()
  .check(
    rule((v: string) =>
      v.trim() && v.length <= MAX_DATABASE_NAME ? undefined : { code: "invalid_name", message: `name must be text of 1 to ${MAX_DATABASE_NAME} characters` },
    ),
  )
  .meta({ minLength: 1, maxLength: MAX_DATABASE_NAME, description: "Display name, free text; the instance is derived from it." });

export const DatabaseCreate = component(
  "DatabaseCreate",
  z
    .strictObject({
      name: DatabaseName,
      tables: z.array(TableInput).optional().meta({ description: "Quick create: every table in one step, all or nothing." }),
      workspace: WorkspaceField("The owner's account id of the workspace to create it in (you must be an editor or admin there; its owner's quota counts it); default your own."),
    })
    .superRefine(problemsOf((body: { tables?: TableFields[] }) => tableListProblems(body.tables ?? [])))
    .meta({ example: { name: "Shop", tables: [TABLE_INPUT_EXAMPLE] } }),
);

export const DatabasePatch = component("DatabasePatch", z.strictObject({ name: DatabaseName }).meta({ example: { name: "My shop" } }));

const summary = {
  instance: z.string().meta({ description: "Path segment of the data API.", example: INSTANCE_EXAMPLE }),
  name: z.string(),
  owner_id: z.int(),
  owner: Person,
  creator: Person,
  role: z.enum(["owner", "admin", "editor", "viewer"]).meta({ description: "Your role on it." }),
  api_base: z.string().meta({ description: "Base path of the data API, `/v1/{instance}`." }),
};
const TIMES = { created_at: "2024-05-01T12:00:00.000Z", updated_at: "2024-05-01T12:00:00.000Z" };
const OWNER = { id: 1, email: "owner@example.com" };
const SUMMARY_EXAMPLE = { instance: INSTANCE_EXAMPLE, name: "Shop", owner_id: 1, owner: OWNER, creator: OWNER, role: "owner", api_base: `/v1/${INSTANCE_EXAMPLE}` };

export const Database = component(
  "Database",
  z
    .object({ ...summary, tables: z.array(Table), created_at: Timestamp, updated_at: Timestamp })
    .meta({ example: { ...SUMMARY_EXAMPLE, tables: [TABLE_EXAMPLE], ...TIMES } }),
);

export const DatabaseSummary = component(
  "DatabaseSummary",
  z
    .object({ ...summary, table_count: z.int().min(0), created_at: Timestamp, updated_at: Timestamp })
    .meta({ description: "A database as listed: its tables are counted, not described.", example: { ...SUMMARY_EXAMPLE, table_count: 1, ...TIMES } }),
);

/** GET /databases query; parameters the route does not name are ignored, as on every management route. */
export const DatabaseListQuery = z.object({
  scope: z
    .enum(["mine", "shared", "all"])
    .optional()
    .meta({ default: "mine", description: "`mine`: your workspace; `shared`: workspaces where you are a member (\"Shared with me\"); `all`: both." }),
  creator: z.string().regex(/^\d+$/).optional().meta({ description: "Only databases created by this account id." }),
  workspace: z.string().regex(/^\d+$/).optional().meta({ description: "Only databases of this owner's workspace." }),
});

export type TableInput = z.input<typeof TableInput>;
export type TableUpdate = z.input<typeof TableUpdate>;
export type Table = z.output<typeof Table>;
export type DatabaseCreate = z.input<typeof DatabaseCreate>;
export type Database = z.output<typeof Database>;
export type DatabaseSummary = z.output<typeof DatabaseSummary>;
