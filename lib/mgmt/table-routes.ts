import { z } from "zod";
import { addColumn } from "../services/columns/add-column";
import { addColumns } from "../services/columns/add-columns";
import { dropColumn } from "../services/columns/drop-column";
import { updateColumn } from "../services/columns/update-column";
import { createTable } from "../services/tables/create-table";
import { dropTable } from "../services/tables/drop-table";
import { getTable } from "../services/tables/get-table";
import { listTables } from "../services/tables/list-tables";
import { updateTable } from "../services/tables/update-table";
import { defineRoute } from "./route";
import { Column, ColumnInput, ColumnPatch, ColumnsInput, Index, IndexInput } from "../contract/schemas/columns";
import { addIndex } from "../services/indexes/add-index";
import { dropIndex } from "../services/indexes/drop-index";
import { Table, TableInput, TableUpdate } from "../contract/schemas/databases";

const TABLES = "databases/:instance/tables";
const TABLE = `${TABLES}/:table` as const;
const COLUMN = `${TABLE}/columns/:column` as const;
const INDEX = `${TABLE}/indexes/:index` as const;

export const TABLE_ROUTES = [
  defineRoute({
    method: "GET", path: TABLES, permission: "database:read", tag: "Tables", operationId: "listTables",
    summary: "List tables", description: "The tables of the database.",
    status: 200, response: z.array(Table),
    run: (ctx, { instance }) => listTables(ctx, { instance }),
  }),
  defineRoute({
    method: "POST", path: TABLES, permission: "database:write", tag: "Tables", operationId: "createTable",
    summary: "Create a table", description: "Creates a table; its data API paths and docs exist at once. A name taken by a table or join is 409.",
    body: TableInput, status: 201, response: Table, errors: ["conflict"],
    run: (ctx, { instance, body }) => createTable(ctx, { instance, body }),
  }),
  defineRoute({
    method: "GET", path: TABLE, permission: "database:read", tag: "Tables", operationId: "getTable",
    summary: "Get a table", description: "The table with its columns.",
    status: 200, response: Table,
    run: (ctx, { instance, table }) => getTable(ctx, { instance, table }),
  }),
  defineRoute({
    method: "PATCH", path: TABLE, permission: "database:write", tag: "Tables", operationId: "renameTable",
    summary: "Rename a table or set its history", description: "Renames the table (its data API path, references and joins follow; a name taken is 409) and/or turns its record history on or off.",
    body: TableUpdate, status: 200, response: Table, errors: ["conflict"],
    run: (ctx, { instance, table, body }) => updateTable(ctx, { instance, table, body }),
  }),
  defineRoute({
    method: "DELETE", path: TABLE, permission: "database:write", tag: "Tables", operationId: "deleteTable",
    summary: "Delete a table", description: "Drops the table and its rows; 409 while another table, a join or database auth uses it.",
    status: 204, errors: ["conflict"],
    run: (ctx, { instance, table }) => dropTable(ctx, { instance, table }),
  }),
  defineRoute({
    method: "POST", path: `${TABLE}/columns`, permission: "database:write", tag: "Columns", operationId: "addColumn",
    summary: "Add a column", description: "Adds one column; the data API and its docs show it at once. A name taken is 409.",
    body: ColumnInput, status: 201, response: Column, errors: ["conflict"],
    run: (ctx, { instance, table, body }) => addColumn(ctx, { instance, table, body }),
  }),
  defineRoute({
    method: "POST", path: `${TABLE}/columns/batch`, permission: "database:write", tag: "Columns", operationId: "addColumns",
    summary: "Add several columns", description: "Adds the listed columns in one change, all or none: one refused column (a name taken is 409) refuses them all, each problem named by its field (`columns[2].nullable`).",
    body: ColumnsInput, status: 201, response: z.array(Column), errors: ["conflict"],
    run: (ctx, { instance, table, body }) => addColumns(ctx, { instance, table, body }),
  }),
  defineRoute({
    method: "PATCH", path: COLUMN, permission: "database:write", tag: "Columns", operationId: "updateColumn",
    summary: "Change a column", description: "Renames or changes the column, keeping data where the conversion is lossless (otherwise 422). A name taken is 409.",
    body: ColumnPatch, status: 200, response: Column, errors: ["conflict"],
    run: (ctx, { instance, table, column, body }) => updateColumn(ctx, { instance, table, column, body }),
  }),
  defineRoute({
    method: "DELETE", path: COLUMN, permission: "database:write", tag: "Columns", operationId: "deleteColumn",
    summary: "Delete a column", description: "Drops the column and its values; 409 while a join or database auth uses it.",
    status: 204, errors: ["conflict"],
    run: (ctx, { instance, table, column }) => dropColumn(ctx, { instance, table, column }),
  }),
  defineRoute({
    method: "POST", path: `${TABLE}/indexes`, permission: "database:write", tag: "Tables", operationId: "addIndex",
    summary: "Add an index", description: "Adds an index over several columns, built before the answer. A unique one over rows that repeat values is 422.",
    body: IndexInput, status: 201, response: Index,
    run: (ctx, { instance, table, body }) => addIndex(ctx, { instance, table, body }),
  }),
  defineRoute({
    method: "DELETE", path: INDEX, permission: "database:write", tag: "Tables", operationId: "deleteIndex",
    summary: "Delete an index", description: "Drops one of the table's indexes over several columns, by name.",
    status: 204,
    run: (ctx, { instance, table, index }) => dropIndex(ctx, { instance, table, index }),
  }),
];
