"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { databasePath, mgmt } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Database, DatabaseCreate, DatabaseSummary } from "./types";

export const useDatabases = () =>
  useQuery({ queryKey: queryKeys.databases, queryFn: () => mgmt<DatabaseSummary[]>("databases") });

export const useDatabase = (instance: string) =>
  useQuery({ queryKey: queryKeys.database(instance), queryFn: () => mgmt<Database>(databasePath(instance)) });

export const useCreateDatabase = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: DatabaseCreate) => mgmt<Database>("databases", { method: "POST", body: input }),
    // A new database counts against the plan and may spend a database credit.
    onSuccess: (db) => {
      qc.setQueryData(queryKeys.database(db.instance), db);
      return Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.databases }),
        qc.invalidateQueries({ queryKey: queryKeys.account }),
        qc.invalidateQueries({ queryKey: queryKeys.credits }),
      ]);
    },
  });
};

export const useRenameDatabase = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => mgmt<Database>(databasePath(instance), { method: "PATCH", body: { name } }),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: queryKeys.databases }), qc.invalidateQueries({ queryKey: queryKeys.database(instance) })]),
  });
};

export const useDeleteDatabase = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => mgmt<void>(databasePath(instance), { method: "DELETE" }),
    onSuccess: () => {
      qc.removeQueries({ queryKey: queryKeys.database(instance) });
      return Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.databases }),
        qc.invalidateQueries({ queryKey: queryKeys.keys }),
        qc.invalidateQueries({ queryKey: queryKeys.account }),
      ]);
    },
  });
};
