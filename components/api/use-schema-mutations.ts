"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { mgmt, tablePath, databasePath } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Column, ColumnInput, ColumnPatch, Index, IndexInput, Table, TableInput } from "./types";

/** Every schema change refreshes the database (tables and columns), its records and its live API docs. */
const useSchemaMutation = <I, O>(instance: string, run: (input: I) => Promise<O>) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.database(instance) }),
        qc.invalidateQueries({ queryKey: queryKeys.databases }),
        qc.invalidateQueries({ queryKey: ["records", instance] }),
        qc.invalidateQueries({ queryKey: queryKeys.openapi(instance) }),
      ]),
  });
};

export const useCreateTable = (instance: string) =>
  useSchemaMutation(instance, (input: TableInput) =>
    mgmt<Table>(`${databasePath(instance)}/tables`, { method: "POST", body: input }),
  );

export const useRenameTable = (instance: string, table: string) =>
  useSchemaMutation(instance, (name: string) => mgmt<Table>(tablePath(instance, table), { method: "PATCH", body: { name } }));

export const useDropTable = (instance: string, table: string) =>
  useSchemaMutation(instance, () => mgmt<void>(tablePath(instance, table), { method: "DELETE" }));

export const useAddColumn = (instance: string, table: string) =>
  useSchemaMutation(instance, (input: ColumnInput) => mgmt<Column>(`${tablePath(instance, table)}/columns`, { method: "POST", body: input }));

/** Several columns in one change, all or none. */
export const useAddColumns = (instance: string, table: string) =>
  useSchemaMutation(instance, (columns: ColumnInput[]) => mgmt<Column[]>(`${tablePath(instance, table)}/columns/batch`, { method: "POST", body: { columns } }));

export const useUpdateColumn = (instance: string, table: string, column: string) =>
  useSchemaMutation(instance, (input: ColumnPatch) =>
    mgmt<Column>(`${tablePath(instance, table)}/columns/${encodeURIComponent(column)}`, { method: "PATCH", body: input }),
  );

export const useDropColumn = (instance: string, table: string) =>
  useSchemaMutation(instance, (column: string) =>
    mgmt<void>(`${tablePath(instance, table)}/columns/${encodeURIComponent(column)}`, { method: "DELETE" }),
  );

export const useAddIndex = (instance: string, table: string) =>
  useSchemaMutation(instance, (input: IndexInput) => mgmt<Index>(`${tablePath(instance, table)}/indexes`, { method: "POST", body: input }));

export const useDropIndex = (instance: string, table: string) =>
  useSchemaMutation(instance, (name: string) =>
    mgmt<void>(`${tablePath(instance, table)}/indexes/${encodeURIComponent(name)}`, { method: "DELETE" }),
  );
